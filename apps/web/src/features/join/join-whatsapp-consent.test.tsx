import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { hostQueue, patchVenueSettings } from '../../test/demo-host-api';
import { choosePartySize } from '../../test/party-size';
import { renderRoute } from '../../test/render-route';
import { setUpTestApi } from '../../test/set-up-test-api';

const BISTRO = '6553f1a2b3c4d5e6f7a8b901';
// The deployment has an approved WhatsApp join template (docs/product.md §10): the venue asks for consent.
const api = setUpTestApi({
  // A join template in every language of the pages: only then does the form ask (docs/decisions/029).
  WHATSAPP_TEMPLATES: JSON.stringify({
    join: { pt: { sid: `HX${'1'.repeat(32)}`, vars: ['venue', 'link'] }, en: { sid: `HX${'2'.repeat(32)}`, vars: ['venue', 'link'] } },
  }),
});

beforeAll(async () => {
  await patchVenueSettings(api, BISTRO, { settings: { channel: 'whatsapp' } });
});

beforeEach(async () => {
  sessionStorage.clear();
  localStorage.clear();
  await initI18n().changeLanguage('pt');
});

/** The consent stored on the entry with this E.164 phone. */
const optInOf = async (e164: string): Promise<boolean[]> =>
  (await hostQueue(api, BISTRO)).filter((entry) => entry.phone === e164).map((entry) => entry.whatsappOptIn ?? false);

describe('WhatsApp consent on the join form of a WhatsApp venue, against the real API', { timeout: 30_000 }, () => {
  it('asks, unticked; ticked, the party joins on WhatsApp and the success names WhatsApp', async () => {
    const user = userEvent.setup();
    renderRoute(`/remote-waitlist/${BISTRO}`);
    await choosePartySize(user, /Número de pessoas/, '2 lugares');
    await user.type(await screen.findByLabelText('Nome e sobrenome'), 'Paula Dias');
    await user.type(screen.getByLabelText('Celular'), '11987654381');
    const consent = screen.getByRole('checkbox', { name: 'Quero receber as atualizações da fila pelo WhatsApp' });
    expect(consent).not.toBeChecked();
    expect(consent).toHaveAccessibleDescription('Sem marcar, você recebe por SMS.');
    await user.click(consent);
    const submit = screen.getByRole('button', { name: 'Entrar na fila' });
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);
    const dialog = await screen.findByRole('dialog', { name: 'Você entrou na fila' }, { timeout: 15_000 });
    expect(dialog).toHaveTextContent('Enviamos uma mensagem no WhatsApp com o link para você acompanhar sua posição na fila.');
    expect(await optInOf('+5511987654381')).toEqual([true]);
  });

  it('in English, left unticked, the party gets SMS and the success says so', async () => {
    await initI18n().changeLanguage('en');
    const user = userEvent.setup();
    renderRoute(`/remote-waitlist/${BISTRO}`);
    await choosePartySize(user, /Party size/, '2 seats');
    await user.type(await screen.findByLabelText('Name and surname'), 'John Smith');
    await user.type(screen.getByLabelText('Phone'), '11987654382');
    expect(screen.getByRole('checkbox', { name: 'Send me the waitlist updates on WhatsApp' })).not.toBeChecked();
    const submit = screen.getByRole('button', { name: 'Join the waitlist' });
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);
    const dialog = await screen.findByRole('dialog', { name: "You've joined the waitlist" }, { timeout: 15_000 });
    expect(dialog).toHaveTextContent('We sent you an SMS with a link to follow your position on the waitlist.');
    expect(await optInOf('+5511987654382')).toEqual([false]);
  });
});
