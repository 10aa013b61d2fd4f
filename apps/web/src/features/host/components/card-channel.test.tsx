import type { HostEntry } from '@vez/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { hostEntry } from '../../../test/host-entry';
import { hostApi } from '../api/host-api';
import { QueueEntryCard } from './queue-entry-card';
import { ThreadDialog } from './thread-dialog';

const entry = (patch: Partial<HostEntry>): HostEntry => hostEntry({ arrivedAt: new Date().toISOString(), ...patch });

const card = (e: HostEntry) =>
  render(
    <ul>
      <QueueEntryCard
        entry={e}
        now={Date.now()}
        busy={false}
        onAction={() => {}}
        onEdit={() => {}}
        onThread={() => {}}
        onResend={() => {}}
      />
    </ul>,
  );

/** docs/product.md §10: the card shows the party's consent and by which channel its last message went. */
describe('the card names the channel', () => {
  beforeEach(async () => {
    await initI18n().changeLanguage('pt');
  });

  it('a party that said yes to WhatsApp, its last message on WhatsApp', () => {
    card(entry({ whatsappOptIn: true, lastMessage: { _id: 'm1', status: 'delivered', channel: 'whatsapp' } }));
    expect(screen.getByTestId('entry-whatsapp')).toHaveTextContent('WhatsApp');
    expect(screen.getByTestId('entry-delivery')).toHaveTextContent('Última mensagem no WhatsApp: entregue');
  });

  it('both attempts: WhatsApp failed, then the SMS', () => {
    card(entry({ whatsappOptIn: true, lastMessage: { _id: 'm2', status: 'sent', channel: 'sms', fallbackFrom: 'whatsapp' } }));
    expect(screen.getByTestId('entry-delivery')).toHaveTextContent('WhatsApp falhou; foi por SMS · Último SMS: enviado');
  });

  it('an SMS party shows no consent', () => {
    card(entry({ whatsappOptIn: false, lastMessage: { _id: 'm3', status: 'sent', channel: 'sms' } }));
    expect(screen.queryByTestId('entry-whatsapp')).toBeNull();
    expect(screen.getByTestId('entry-delivery')).toHaveTextContent('Último SMS: enviado');
  });
});

describe('the thread names the channel of each message', () => {
  beforeEach(async () => {
    await initI18n().changeLanguage('pt');
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('by WhatsApp, by SMS, and a WhatsApp message that went by SMS', async () => {
    vi.spyOn(hostApi, 'thread').mockResolvedValue({
      messages: [
        {
          _id: 't1',
          direction: 'out',
          text: 'Sua mesa está quase pronta.',
          at: '2026-11-26T19:00:00.000Z',
          status: 'delivered',
          channel: 'whatsapp',
        },
        { _id: 't2', direction: 'in', text: 'Obrigada!', at: '2026-11-26T19:01:00.000Z', status: 'read' },
        {
          _id: 't3',
          direction: 'out',
          text: 'Pode vir.',
          at: '2026-11-26T19:02:00.000Z',
          status: 'sent',
          channel: 'sms',
          fallbackFrom: 'whatsapp',
        },
      ],
    });
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ThreadDialog venueId="v1" entry={entry({ whatsappOptIn: true })} onClose={() => {}} />
      </QueryClientProvider>,
    );
    const first = (await screen.findByText('Sua mesa está quase pronta.')).closest('li');
    expect(first).toHaveTextContent(/no WhatsApp · entregue$/);
    const last = screen.getByText('Pode vir.').closest('li');
    expect(last).toHaveTextContent(/WhatsApp falhou; foi por SMS · por SMS · enviado$/);
    expect(screen.getByRole('textbox', { name: /vai no WhatsApp se ele escreveu nas últimas 24 h, senão por SMS/ })).toBeInTheDocument();
  });
});
