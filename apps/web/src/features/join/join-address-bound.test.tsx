import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { joinByApi } from '../../test/api-server';
import { setUpTestApi } from '../../test/set-up-test-api';
import { choosePartySize } from '../../test/party-size';
import { renderRoute } from '../../test/render-route';

const BISTRO = '6553f1a2b3c4d5e6f7a8b901';
const MAX_OPEN = 2;
// This browser and the API calls below are one client address (127.0.0.1).
const api = setUpTestApi({ JOIN_MAX_OPEN_PER_ADDRESS_PER_VENUE: String(MAX_OPEN) });

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
});

async function submitForm(labels: { party: RegExp; seats: string; name: string; phone: string; submit: string }, digits: string) {
  const user = userEvent.setup();
  await choosePartySize(user, labels.party, labels.seats);
  await user.type(await screen.findByLabelText(labels.name), 'Beto Lima');
  await user.type(screen.getByLabelText(labels.phone), digits);
  const submit = screen.getByRole('button', { name: labels.submit });
  await waitFor(() => expect(submit).toBeEnabled());
  await user.click(submit);
}

/** docs/decisions/026: past the venue's bound of open parties per connection, the diner is told what to do. */
describe('join refused past the open parties of one connection', { timeout: 30_000 }, () => {
  it('says so in Portuguese (the default) and in English, and shows no entry', async () => {
    for (let i = 0; i < MAX_OPEN; i++) expect((await joinByApi(api, BISTRO, { phone: `+551198765310${i}` })).status).toBe(201);

    await initI18n().changeLanguage('pt');
    const view = renderRoute(`/remote-waitlist/${BISTRO}`);
    await submitForm(
      { party: /Número de pessoas/, seats: '2 lugares', name: 'Nome e sobrenome', phone: 'Celular', submit: 'Entrar na fila' },
      '11987653110',
    );
    expect(
      await screen.findByRole(
        'dialog',
        { name: 'Já há muitos grupos nesta fila feitos a partir desta conexão. Peça à recepção para incluir você.' },
        { timeout: 15_000 },
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Acompanhar' })).toBeNull();
    view.unmount();

    await initI18n().changeLanguage('en');
    renderRoute(`/remote-waitlist/${BISTRO}`);
    await submitForm(
      { party: /Party size/, seats: '2 seats', name: 'Name and surname', phone: 'Phone', submit: 'Join the waitlist' },
      '11987653111',
    );
    expect(
      await screen.findByRole(
        'dialog',
        { name: 'Too many parties have joined this waitlist from this connection already. Please ask the host to add you.' },
        { timeout: 15_000 },
      ),
    ).toBeInTheDocument();
  });
});
