import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { hostQueue, patchVenueSettings } from '../../test/demo-host-api';
import { choosePartySize } from '../../test/party-size';
import { renderRoute } from '../../test/render-route';
import { setUpTestApi } from '../../test/set-up-test-api';

const BISTRO = '6553f1a2b3c4d5e6f7a8b901';
const api = setUpTestApi();

beforeEach(async () => {
  sessionStorage.clear();
  localStorage.clear();
  await initI18n().changeLanguage('pt');
});

/** The names of the entries stored with this E.164 phone. */
const namesWithPhone = async (e164: string): Promise<(string | null)[]> =>
  (await hostQueue(api, BISTRO)).filter((entry) => entry.phone === e164).map((entry) => entry.name);

/** The Bistro's form up to the phone: party size and a full name. */
async function openForm(user: ReturnType<typeof userEvent.setup>, name = 'Beatriz Lima') {
  renderRoute(`/remote-waitlist/${BISTRO}`);
  await choosePartySize(user, /Número de pessoas/, '2 lugares');
  await user.type(await screen.findByLabelText('Nome e sobrenome'), name);
}

/** docs/product.md §15: phones as people paste them (WhatsApp, contact cards). */
describe('pasted phones on the join form, against the real API', { timeout: 30_000 }, () => {
  it.each([
    ['+55 (11) 97777-6543', '(11) 97777-6543', '+5511977776543'],
    ['55 (11) 98765 4311', '(11) 98765-4311', '+5511987654311'],
    ['011 98765-4312', '(11) 98765-4312', '+5511987654312'],
  ])('a diner who pastes %j joins', async (pasted, shown, e164) => {
    const user = userEvent.setup();
    await openForm(user);
    const phone = screen.getByLabelText('Celular');
    await user.click(phone);
    await user.paste(pasted);
    expect(phone).toHaveValue(shown);
    const submit = screen.getByRole('button', { name: 'Entrar na fila' });
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);
    expect(await screen.findByRole('dialog', { name: 'Você entrou na fila' }, { timeout: 15_000 })).toBeInTheDocument();
    expect(await namesWithPhone(e164)).toEqual(['Beatriz Lima']);
  });

  it('typed key by key: area code 55 stays an area code, a trunk 0 goes', async () => {
    const user = userEvent.setup();
    await openForm(user);
    const phone = screen.getByLabelText('Celular');
    await user.type(phone, '55987654315');
    expect(phone).toHaveValue('(55) 98765-4315');
    await user.clear(phone);
    await user.type(phone, '011987654315');
    expect(phone).toHaveValue('(11) 98765-4315');
  });

  it('a landline says "Use um celular" at the field before any submit', async () => {
    const user = userEvent.setup();
    await openForm(user);
    const phone = screen.getByLabelText('Celular');
    await user.click(phone);
    await user.paste('+55 (11) 3456-7890');
    await user.tab();
    expect(await screen.findByText('Use um celular')).toBeInTheDocument();
    expect(phone).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('button', { name: 'Entrar na fila' })).toBeDisabled();
  });

  it('says "Use a mobile number" in English', async () => {
    await initI18n().changeLanguage('en');
    const user = userEvent.setup();
    renderRoute(`/remote-waitlist/${BISTRO}`);
    await choosePartySize(user, /Party size/, '2 seats');
    await user.type(await screen.findByLabelText('Name and surname'), 'John Smith');
    await user.type(screen.getByLabelText('Phone'), '1134567890');
    await user.tab();
    expect(await screen.findByText('Use a mobile number')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Join the waitlist' })).toBeDisabled();
  });

  it('a field the server refuses shows at that field, never as a failure to join', async () => {
    const user = userEvent.setup();
    await openForm(user, 'Carlos Prado');
    // The venue starts asking for the email while the diner is on the page.
    await patchVenueSettings(api, BISTRO, { settings: { emailRequired: true } });
    try {
      await user.type(screen.getByLabelText('Celular'), '11987654313');
      const submit = screen.getByRole('button', { name: 'Entrar na fila' });
      await waitFor(() => expect(submit).toBeEnabled());
      await user.click(submit);
      expect(await screen.findByText('E-mail inválido', {}, { timeout: 15_000 })).toBeInTheDocument();
      expect(screen.getByLabelText('E-mail (opcional)')).toHaveAttribute('aria-invalid', 'true');
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(screen.queryByText('Não foi possível entrar na fila.')).toBeNull();
    } finally {
      await patchVenueSettings(api, BISTRO, { settings: { emailRequired: false } });
    }
  });

  it('a party size the venue no longer takes shows at the party size', async () => {
    const user = userEvent.setup();
    renderRoute(`/remote-waitlist/${BISTRO}`);
    await choosePartySize(user, /Número de pessoas/, '6 lugares');
    await user.type(await screen.findByLabelText('Nome e sobrenome'), 'Dora Reis');
    await patchVenueSettings(api, BISTRO, { maxPartySize: 4 });
    try {
      await user.type(screen.getByLabelText('Celular'), '11987654314');
      const submit = screen.getByRole('button', { name: 'Entrar na fila' });
      await waitFor(() => expect(submit).toBeEnabled());
      await user.click(submit);
      expect(await screen.findByText('Informe o número de pessoas', {}, { timeout: 15_000 })).toBeInTheDocument();
      expect(screen.queryByRole('dialog')).toBeNull();
    } finally {
      await patchVenueSettings(api, BISTRO, { maxPartySize: 8 });
    }
  });
});
