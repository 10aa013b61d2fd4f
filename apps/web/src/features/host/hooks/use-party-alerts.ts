import type { VenueChannelEvent } from '@vez/contract';
import { useCallback, useEffect, useRef, useState } from 'react';

/** How long a card stays highlighted after the party did something. */
export const HIGHLIGHT_MS = 6_000;
/** The mute switch is kept per device (docs/product.md §7). */
export const MUTE_KEY = 'vez.host.muted';

const readMuted = (): boolean => {
  try {
    return localStorage.getItem(MUTE_KEY) === '1';
  } catch {
    return false;
  }
};

/** How many parties the latest sounds name (`alerted`). */
const ALERTED_KEPT = 30;

/**
 * A remote join, an answer, a message or a cancel by the party (events with `byParty`, docs/product.md
 * §7) highlights its card and plays the short sound, unless muted. `alerts` counts the sounds asked
 * for and `alerted` names the parties of the latest ones (a browser test reads both from the audio
 * element: headless browsers may play nothing).
 */
export function usePartyAlerts() {
  const [muted, setMutedState] = useState(readMuted);
  const [highlighted, setHighlighted] = useState<ReadonlySet<string>>(new Set());
  const [alerts, setAlerts] = useState(0);
  const [alerted, setAlerted] = useState<readonly string[]>([]);
  const audio = useRef<HTMLAudioElement>(null);
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const mutedRef = useRef(muted);
  mutedRef.current = muted;

  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach(clearTimeout);
  }, []);

  const onEvents = useCallback((events: VenueChannelEvent[]) => {
    const ids = events.filter((e) => e.byParty && e.entryId).map((e) => e.entryId!);
    if (ids.length === 0) return;
    setHighlighted((old) => new Set([...old, ...ids]));
    for (const id of ids) {
      clearTimeout(timers.current.get(id));
      timers.current.set(
        id,
        setTimeout(() => {
          timers.current.delete(id);
          setHighlighted((old) => new Set([...old].filter((x) => x !== id)));
        }, HIGHLIGHT_MS),
      );
    }
    if (mutedRef.current) return;
    setAlerts((n) => n + 1);
    setAlerted((old) => [...old, ...ids].slice(-ALERTED_KEPT));
    const sound = audio.current;
    if (sound) {
      sound.currentTime = 0;
      // A browser may refuse to play before the first tap on the page: the highlight still shows.
      void sound.play?.()?.catch(() => undefined);
    }
  }, []);

  const setMuted = useCallback((next: boolean) => {
    setMutedState(next);
    try {
      localStorage.setItem(MUTE_KEY, next ? '1' : '0');
    } catch {
      // Private mode without storage: the switch holds for this page only.
    }
  }, []);

  return { muted, setMuted, highlighted, alerts, alerted, audio, onEvents };
}

/** A short two-tone chime as a WAV data URI, made here: no sound file to fetch or to keep. */
export function chimeDataUri(): string {
  const rate = 8000;
  const samples = Math.round(rate * 0.28);
  const bytes = new Uint8Array(44 + samples);
  const view = new DataView(bytes.buffer);
  const text = (at: number, value: string) => [...value].forEach((c, i) => view.setUint8(at + i, c.charCodeAt(0)));
  text(0, 'RIFF');
  view.setUint32(4, 36 + samples, true);
  text(8, 'WAVEfmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, rate, true);
  view.setUint32(28, rate, true);
  view.setUint16(32, 1, true);
  view.setUint16(34, 8, true); // 8-bit
  text(36, 'data');
  view.setUint32(40, samples, true);
  for (let i = 0; i < samples; i++) {
    const t = i / rate;
    const tone = t < 0.14 ? 880 : 1320;
    const fade = 1 - (t % 0.14) / 0.14;
    bytes[44 + i] = 128 + Math.round(60 * fade * Math.sin(2 * Math.PI * tone * t));
  }
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return `data:audio/wav;base64,${btoa(binary)}`;
}
