import type { HostEntry } from '@vez/contract';
import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { QueueEntryCard } from './queue-entry-card';

const entry = (patch: Partial<HostEntry>): HostEntry => ({
  _id: 'e1',
  customerTab: '7',
  status: 'active',
  priority: false,
  partySize: 2,
  name: 'Ana Souza',
  phone: '+5511987650001',
  email: null,
  note: null,
  section: null,
  originLabel: 'Widget',
  globalPos: 1,
  pos: 1,
  quoted: null,
  arrivedAt: new Date().toISOString(),
  notifiedAt: null,
  reply: null,
  calls: 0,
  calledAt: null,
  holdUntil: null,
  unread: 0,
  lastMessage: null,
  ...patch,
});

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
