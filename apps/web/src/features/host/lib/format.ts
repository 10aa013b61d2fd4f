import { IMAGE_FORMAT, IMAGE_QUALITY, PARTY_SIZE_BANDS, type HostEntry, bandOf } from '@vez/contract';

/** Image host + path + `?quality=70&format=webp`; empty for no image. */
export function imageSrc(imageBaseUrl: string, path: string | undefined): string {
  if (!path || path.trim() === '' || path === 'undefined') return '';
  const base = /^https?:\/\//.test(path) ? path : `${imageBaseUrl.replace(/\/$/, '')}/${path.replace(/^\//, '')}`;
  return `${base}${base.includes('?') ? '&' : '?'}quality=${IMAGE_QUALITY}&format=${IMAGE_FORMAT}`;
}

export const minutesSince = (iso: string, now: number) => Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000));

/** Labels of the party-size bands: 1–2, 3–4, 5–6, 7+. */
export function bandLabels(): string[] {
  return PARTY_SIZE_BANDS.map((upper, i) => {
    const lower = i === 0 ? 1 : (PARTY_SIZE_BANDS[i - 1] as number) + 1;
    return Number.isFinite(upper) ? `${lower}–${upper}` : `${lower}+`;
  });
}

/** Parties and people per band, waiting and called together. */
export function countByBand(entries: readonly HostEntry[]): { parties: number; people: number }[] {
  const counts = PARTY_SIZE_BANDS.map(() => ({ parties: 0, people: 0 }));
  for (const entry of entries) {
    const band = counts[bandOf(entry.partySize)];
    if (!band) continue;
    band.parties += 1;
    band.people += entry.partySize;
  }
  return counts;
}

/** Today's date in the browser's time zone and that zone's offset (minutes east of UTC). */
export function localToday(now = new Date()): { date: string; tz: number } {
  const tz = -now.getTimezoneOffset();
  return { date: new Date(now.getTime() + tz * 60_000).toISOString().slice(0, 10), tz };
}

/** A moment as the console's language writes a short date and time (an invitation's end). */
export function formatDateTime(iso: string, language: string): string {
  return new Date(iso).toLocaleString(language.startsWith('en') ? 'en-US' : 'pt-BR', { dateStyle: 'short', timeStyle: 'short' });
}
