import type { HostEntry, VenueChannelEvent } from '@vez/contract';
import { act, render, renderHook, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { QueueEntryCard } from '../components/queue-entry-card';
import { HIGHLIGHT_MS, MUTE_KEY, chimeDataUri, usePartyAlerts } from './use-party-alerts';

const event = (patch: Partial<VenueChannelEvent>): VenueChannelEvent => ({
  type: 'update',
  venueId: '6553f1a2b3c4d5e6f7a8b901',
  at: '2026-11-24T20:00:00.000Z',
  ...patch,
});

beforeEach(async () => {
  localStorage.clear();
  await initI18n().changeLanguage('pt');
});
afterEach(() => vi.useRealTimers());

describe('alerts on what the party does (docs/product.md §7)', () => {
  it('highlights the cards of party events and counts one sound per batch; staff events stay quiet', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => usePartyAlerts());
    act(() => result.current.onEvents([event({ type: 'call', entryId: 'a' })]));
    expect(result.current.alerts).toBe(0);
    expect(result.current.highlighted.size).toBe(0);
    act(() => result.current.onEvents([event({ entryId: 'a', byParty: true }), event({ type: 'add', entryId: 'b', byParty: true })]));
    expect(result.current.alerts).toBe(1);
    expect([...result.current.highlighted].sort()).toEqual(['a', 'b']);
    act(() => vi.advanceTimersByTime(HIGHLIGHT_MS + 1));
    expect(result.current.highlighted.size).toBe(0);
  });

  it('keeps the mute switch on the device and plays nothing while muted', () => {
    const first = renderHook(() => usePartyAlerts());
    act(() => first.result.current.setMuted(true));
    expect(localStorage.getItem(MUTE_KEY)).toBe('1');
    const again = renderHook(() => usePartyAlerts());
    expect(again.result.current.muted).toBe(true);
    act(() => again.result.current.onEvents([event({ entryId: 'a', byParty: true })]));
    expect(again.result.current.alerts).toBe(0);
    expect(again.result.current.highlighted.has('a')).toBe(true);
  });

  it('makes a playable WAV', () => {
    const uri = chimeDataUri();
    expect(uri.startsWith('data:audio/wav;base64,UklGR')).toBe(true);
    expect(atob(uri.split(',')[1]!).slice(8, 12)).toBe('WAVE');
  });
});

const entry = (patch: Partial<HostEntry>): HostEntry => ({
  _id: 'e1',
  customerTab: '7',
  status: 'called',
  priority: false,
  partySize: 2,
  name: 'Ana Souza',
  phone: '+5511987650001',
  email: null,
  note: null,
  section: null,
  originLabel: 'Widget',
  globalPos: 0,
  pos: 0,
  quoted: null,
  arrivedAt: '2026-11-24T19:00:00.000Z',
  notifiedAt: '2026-11-24T19:30:00.000Z',
  reply: null,
  calls: 1,
  calledAt: '2026-11-24T19:30:00.000Z',
  holdUntil: '2026-11-24T19:40:00.000Z',
  unread: 0,
  lastMessage: null,
  ...patch,
});

describe('the card shows the conversation', () => {
  const noop = () => undefined;
  it('shows the answer with its time, unread messages and a failed delivery with send again', async () => {
    const onResend = vi.fn();
    const onThread = vi.fn();
    render(
      <ol>
        <QueueEntryCard
          entry={entry({
            reply: { kind: 'needMoreTime', minutes: 10, at: '2026-11-24T19:35:00.000Z' },
            unread: 2,
            lastMessage: { _id: 'm1', status: 'failed' },
          })}
          now={Date.parse('2026-11-24T19:36:00.000Z')}
          busy={false}
          highlighted
          onAction={noop}
          onEdit={noop}
          onThread={onThread}
          onResend={onResend}
        />
      </ol>,
    );
    expect(screen.getByTestId('entry-reply').textContent).toMatch(/^Pediu mais 10 min · \d\d:\d\d$/);
    expect(screen.getByText('2 novas')).toBeInTheDocument();
    expect(screen.getByTestId('entry-delivery')).toHaveTextContent('Último SMS: falhou');
    expect(screen.getByRole('listitem')).toHaveClass('host-entry--alert');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Enviar de novo' }));
    expect(onResend).toHaveBeenCalledWith('m1');
    await user.click(screen.getByRole('button', { name: 'Mensagens (2 novas)' }));
    expect(onThread).toHaveBeenCalled();
  });

  it('shows nothing of the conversation before there is any', () => {
    render(
      <ol>
        <QueueEntryCard entry={entry({})} now={Date.now()} busy={false} onAction={noop} onEdit={noop} onThread={noop} onResend={noop} />
      </ol>,
    );
    expect(screen.queryByTestId('entry-reply')).not.toBeInTheDocument();
    expect(screen.queryByTestId('entry-delivery')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Enviar de novo' })).not.toBeInTheDocument();
  });
});
