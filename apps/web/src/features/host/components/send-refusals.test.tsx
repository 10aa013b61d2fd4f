import { type HostSettingsResponse, defaultColor, defaultVenueSettings } from '@vez/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { initI18n } from '../../../lib/i18n';
import { hostEntry } from '../../../test/host-entry';
import { hostApi } from '../api/host-api';
import { QueueScreen } from './queue-screen';
import { SettingsScreen } from './settings-screen';
import { ThreadDialog } from './thread-dialog';

const BISTRO = '6553f1a2b3c4d5e6f7a8b901';

const settingsAnswer: HostSettingsResponse = {
  venue: {
    _id: BISTRO,
    slug: 'bistro-demo',
    name: { pt: 'Bistrô Demo' },
    address: { city: 'São Paulo', neighborhood: 'Pinheiros' },
    hasMenu: false,
    hiredServices: { loginJourney: false },
    reservationUrl: 'https://reservas.example/r/bistro',
    settings: defaultVenueSettings,
  },
  theme: {
    color: defaultColor,
    logo: { vertical: '', horizontal: '', horizontalWhite: '' },
    typeImageSpotlight: 'none',
    inspirationalImage: { small: '', large: '' },
    banners: { list: [] },
  },
  settings: { ...defaultVenueSettings, menuUrl: 'https://cardapio.example/bistro' },
  maxPartySize: 8,
  sections: [],
  waitlist: { active: true, locked: false },
};

const wrap = (node: ReactNode) => render(<QueryClientProvider client={new QueryClient()}>{node}</QueryClientProvider>);
const limited = (code: 'PARTY_SENDS_LIMITED' | 'VENUE_SENDS_LIMITED', retryAfter: number) =>
  new ApiError(429, { code, message: 'Too many.' }, retryAfter);

/** Sends that cost money (docs/security.md): the console says why a send was refused, by the action. */
describe('refused sends in the host console', () => {
  beforeEach(async () => {
    await initI18n().changeLanguage('pt');
    vi.spyOn(hostApi, 'settings').mockResolvedValue(settingsAnswer);
  });
  afterEach(() => vi.restoreAllMocks());

  it("a call over the party's bound shows on that party's card, with the wait in minutes", async () => {
    vi.spyOn(hostApi, 'queue').mockResolvedValue({
      venueId: BISTRO,
      waitlist: { active: true, locked: false },
      entries: [hostEntry({ _id: 'a', name: 'Ana Souza' }), hostEntry({ _id: 'b', name: 'Rui Tavares', customerTab: '8', globalPos: 2 })],
    });
    vi.spyOn(hostApi, 'call').mockRejectedValue(limited('PARTY_SENDS_LIMITED', 290));
    const user = userEvent.setup();
    wrap(<QueueScreen venueId={BISTRO} />);
    const [ana, rui] = await screen.findAllByRole('listitem');
    await user.click(within(ana!).getByRole('button', { name: 'Chamar' }));
    expect(await within(ana!).findByRole('alert')).toHaveTextContent(
      'Este grupo já recebeu várias mensagens agora há pouco. Espere 5 minutos para enviar de novo.',
    );
    expect(within(rui!).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('the venue bound and an ended party are said in the console language, by the card', async () => {
    await initI18n().changeLanguage('en');
    vi.spyOn(hostApi, 'queue').mockResolvedValue({
      venueId: BISTRO,
      waitlist: { active: true, locked: false },
      entries: [hostEntry({ _id: 'a', lastMessage: { _id: 'm1', status: 'failed' } })],
    });
    vi.spyOn(hostApi, 'call').mockRejectedValue(limited('VENUE_SENDS_LIMITED', 60));
    vi.spyOn(hostApi, 'resend').mockRejectedValue(
      new ApiError(409, { code: 'ENTRY_NOT_ACTIVE', message: 'This party is no longer on the list: nothing is sent to it again.' }),
    );
    const user = userEvent.setup();
    wrap(<QueueScreen venueId={BISTRO} />);
    const card = await screen.findByRole('listitem');
    await user.click(within(card).getByRole('button', { name: 'Call' }));
    expect(await within(card).findByRole('alert')).toHaveTextContent(
      'The venue reached its hourly limit of messages. Wait 1 minute before sending again.',
    );
    await user.click(within(card).getByRole('button', { name: 'Send again' }));
    expect(await within(card).findByText(/nothing is sent to it again/)).toHaveAttribute('role', 'alert');
  });

  it('a staff message over the bound or past the segment cap shows under the message box', async () => {
    vi.spyOn(hostApi, 'thread').mockResolvedValue({ messages: [] });
    const send = vi
      .spyOn(hostApi, 'sendMessage')
      .mockRejectedValueOnce(limited('PARTY_SENDS_LIMITED', 600))
      .mockRejectedValueOnce(new ApiError(422, { code: 'MESSAGE_TOO_LONG', message: 'Too long.', field: 'text' }));
    const user = userEvent.setup();
    wrap(<ThreadDialog venueId={BISTRO} entry={hostEntry({})} onClose={() => undefined} />);
    const box = await screen.findByRole('textbox', { name: /Mensagem para o cliente/ });
    await user.type(box, 'Sua mesa está pronta.');
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Espere 10 minutos para enviar de novo.');
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(await screen.findByText(/^Mensagem longa demais/)).toHaveTextContent(
      'Mensagem longa demais: com o nome do restaurante ela passaria de 4 SMS. Encurte o texto.',
    );
    expect(send).toHaveBeenCalledTimes(2);
  });

  it("the message editor names a link outside the venue and a text past the cap as staff type, like the server's check", async () => {
    const user = userEvent.setup();
    wrap(<SettingsScreen venueId={BISTRO} />);
    const messages = within(await screen.findByRole('group', { name: 'Mensagens aos clientes' }));
    await user.selectOptions(messages.getByRole('combobox', { name: 'Mensagem' }), 'call');
    const text = messages.getByRole('textbox', { name: 'Texto' });
    await user.clear(text);
    await user.type(text, 'Sua vez! Cardápio: https://cardapio.example/bistro');
    expect(messages.queryByRole('alert')).not.toBeInTheDocument();
    await user.type(text, ' e promo em bit.ly/x');
    expect(messages.getByRole('alert')).toHaveTextContent('Este texto tem um link para fora do restaurante (bit.ly/x)');
    await user.clear(text);
    await user.click(text);
    // Counted as it goes (without accents, the default): 'ã' would fold to 'a'; '€' is two GSM-7 units.
    await user.paste(`{name} ${'€'.repeat(300)}`);
    expect(messages.getByRole('alert')).toHaveTextContent('este texto custaria 5 SMS; o máximo é 4.');
  });
});
