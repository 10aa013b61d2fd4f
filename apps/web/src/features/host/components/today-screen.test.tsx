import type { HostStatsResponse } from '@vez/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { hostApi } from '../api/host-api';
import { TodayScreen } from './today-screen';

const BISTRO = '6553f1a2b3c4d5e6f7a8b901';
const day = (messages: HostStatsResponse['messages']): HostStatsResponse => ({
  venueId: BISTRO,
  date: '2030-04-01',
  tz: -180,
  joined: 4,
  seated: 0,
  left: 0,
  noShows: 0,
  removed: 0,
  medianWaitMinutes: null,
  p90WaitMinutes: null,
  quotes: null,
  byHour: [],
  messages,
});
const SENT: HostStatsResponse['messages'] = [
  { channel: 'sms', sent: 1, segments: 1 },
  { channel: 'whatsapp', sent: 1, segments: null },
  { channel: 'push', sent: 2, segments: null },
  { channel: 'email', sent: 0, segments: null },
];

/** The Today screen's message figures (docs/product.md §8, SMS cost): sent by channel, SMS segments. */
describe('today: messages and SMS segments by channel', () => {
  afterEach(() => vi.restoreAllMocks());
  const show = async (messages: HostStatsResponse['messages'], lang: 'pt' | 'en') => {
    await initI18n().changeLanguage(lang);
    vi.spyOn(hostApi, 'stats').mockResolvedValue(day(messages));
    render(
      <QueryClientProvider client={new QueryClient()}>
        <TodayScreen venueId={BISTRO} />
      </QueryClientProvider>,
    );
  };
  const figures = async () =>
    Object.fromEntries(
      within(await screen.findByTestId('message-figures'))
        .getAllByRole('definition')
        .map((dd) => [dd.previousElementSibling?.textContent, dd.textContent]),
    );

  it('in Portuguese', async () => {
    await show(SENT, 'pt');
    expect(await figures()).toEqual({
      SMS: '1 mensagem · 1 segmento de SMS',
      WhatsApp: '1 mensagem',
      Notificações: '2 mensagens',
      'E-mail': '0 mensagens',
    });
    expect(screen.getByRole('heading', { name: 'Mensagens enviadas' })).toBeInTheDocument();
  });

  it('in English', async () => {
    await show(SENT, 'en');
    expect(await figures()).toEqual({
      SMS: '1 message · 1 SMS segment',
      WhatsApp: '1 message',
      Notifications: '2 messages',
      Email: '0 messages',
    });
  });

  it('counts more than one, and none', async () => {
    await show(
      [
        { channel: 'sms', sent: 3, segments: 4 },
        { channel: 'whatsapp', sent: 0, segments: null },
        { channel: 'push', sent: 0, segments: null },
        { channel: 'email', sent: 0, segments: null },
      ],
      'pt',
    );
    expect(await figures()).toMatchObject({ SMS: '3 mensagens · 4 segmentos de SMS', WhatsApp: '0 mensagens' });
  });

  it('a day whose messages are no longer kept says so instead of showing zeros', async () => {
    await show(null, 'pt');
    expect(await screen.findByText('As mensagens deste dia já foram apagadas (são guardadas por pouco tempo).')).toBeInTheDocument();
    expect(screen.queryByTestId('message-figures')).toBeNull();
  });
});
