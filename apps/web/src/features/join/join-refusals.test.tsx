import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { joinByApi as joinAtVenue } from '../../test/api-server';
import { setUpTestApi } from '../../test/set-up-test-api';
import { patchVenueSettings } from '../../test/demo-host-api';
import { choosePartySize } from '../../test/party-size';
import { renderRoute } from '../../test/render-route';
import { SESSION_LOCK_STORAGE_KEY, sessionLockKey } from './lib/session-lock';

const BISTRO = '6553f1a2b3c4d5e6f7a8b901';
const api = setUpTestApi();

beforeEach(async () => {
  sessionStorage.clear();
  localStorage.clear();
  await initI18n().changeLanguage('pt');
});

/** Somebody's join through the API (another browser, another device). */
async function joinByApi(phone: string): Promise<{ _id: string; joinProof: string }> {
  const joined = await joinAtVenue(api, BISTRO, { phone });
  expect(joined.status).toBe(201);
  return joined;
}

/** Fills the Bistro's form (party size, name, Brazilian mobile typed as digits) and submits it. */
async function submitForm(
  labels: { party: RegExp; seats: string; name: string; phone: string; submit: string },
  name: string,
  digits: string,
) {
  const user = userEvent.setup();
  await choosePartySize(user, labels.party, labels.seats);
  await user.type(await screen.findByLabelText(labels.name), name);
  await user.type(screen.getByLabelText(labels.phone), digits);
  const submit = screen.getByRole('button', { name: labels.submit });
  await waitFor(() => expect(submit).toBeEnabled());
  await user.click(submit);
}

const pt = { party: /Número de pessoas/, seats: '2 lugares', name: 'Nome e sobrenome', phone: 'Celular', submit: 'Entrar na fila' };
const en = { party: /Party size/, seats: '2 seats', name: 'Name and surname', phone: 'Phone', submit: 'Join the waitlist' };

/** Decisions §3: a repeat join is told the party is already on the list, and never sees the entry. */
describe('join refusals against the real API', { timeout: 30_000 }, () => {
  it('a repeat join with a phone already on the list says so in Portuguese, without the entry', async () => {
    const first = await joinByApi('+5511987653001');
    renderRoute(`/remote-waitlist/${BISTRO}`);
    await submitForm(pt, 'Outra Pessoa', '11987653001');
    const dialog = await screen.findByRole('dialog', { name: 'Você já está nesta fila' }, { timeout: 15_000 });
    expect(within(dialog).getByText('Enviamos o link para o seu celular de novo por SMS.')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Acompanhar' })).toBeNull();
    expect(document.body.innerHTML).not.toContain(first._id);
    expect(localStorage.getItem(SESSION_LOCK_STORAGE_KEY)).toBeNull();
  });

  it('says so in English too', async () => {
    await initI18n().changeLanguage('en');
    await joinByApi('+5511987653002');
    renderRoute(`/remote-waitlist/${BISTRO}`);
    await submitForm(en, 'Someone Else', '11987653002');
    const dialog = await screen.findByRole('dialog', { name: 'You are already on this waitlist' }, { timeout: 15_000 });
    expect(within(dialog).getByText('We sent the link to your phone again by SMS.')).toBeInTheDocument();
  });

  it('the browser that made the first join gets its entry back with the proof it kept', async () => {
    const first = await joinByApi('+5511987653003');
    // The 10-minute lock has ended; the proof is still kept.
    const lock = { timestamp: Date.now() - 11 * 60_000, waitlistId: first._id, joinProof: first.joinProof };
    localStorage.setItem(SESSION_LOCK_STORAGE_KEY, JSON.stringify({ [sessionLockKey(BISTRO, '+5511987653003')]: lock }));
    renderRoute(`/remote-waitlist/${BISTRO}`);
    await submitForm(pt, 'Ana Souza', '11987653003');
    expect(await screen.findByRole('dialog', { name: 'Você entrou na fila' }, { timeout: 15_000 })).toBeInTheDocument();
  });

  it('names the venue’s SMS countries when the phone is from another, and says when the list is full', async () => {
    await initI18n().changeLanguage('en');
    const user = userEvent.setup();
    const view = renderRoute(`/remote-waitlist/${BISTRO}`);
    await choosePartySize(user, /Party size/, '2 seats');
    await user.type(await screen.findByLabelText('Name and surname'), 'John Smith');
    await user.click(screen.getByRole('button', { name: /Country: Brazil/ }));
    await user.type(screen.getByRole('combobox', { name: 'Search country' }), 'portugal');
    await user.click(screen.getByRole('option', { name: /Portugal/ }));
    await user.type(screen.getByLabelText('Phone'), '912345678');
    const submit = screen.getByRole('button', { name: 'Join the waitlist' });
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);
    const dialog = await screen.findByRole(
      'dialog',
      { name: 'This restaurant sends SMS only to phones from: Brazil.' },
      { timeout: 15_000 },
    );
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(await screen.findByText('Country not accepted by this restaurant')).toBeInTheDocument();
    view.unmount();

    await patchVenueSettings(api, BISTRO, { settings: { maxWaitingParties: 1 } });
    await initI18n().changeLanguage('pt');
    renderRoute(`/remote-waitlist/${BISTRO}`);
    await submitForm(pt, 'Beto Lima', '11987653004');
    expect(
      await screen.findByRole(
        'dialog',
        { name: 'A fila está cheia no momento. Tente mais tarde ou fale com a recepção.' },
        { timeout: 15_000 },
      ),
    ).toBeInTheDocument();
  });
});
