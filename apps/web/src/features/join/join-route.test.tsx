import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initI18n } from '../../lib/i18n';
import { beforeEach, describe, expect, it } from 'vitest';
import { setUpTestApi } from '../../test/set-up-test-api';
import { hostQueue, patchVenueSettings } from '../../test/demo-host-api';
import { joinSmsLanguage } from '../../test/entries';
import { choosePartySize } from '../../test/party-size';
import { renderRoute } from '../../test/render-route';

const BISTRO = '6553f1a2b3c4d5e6f7a8b901';
const CLUBE = '6553f1a2b3c4d5e6f7a8b902';
const api = setUpTestApi();

beforeEach(async () => {
  sessionStorage.clear();
  localStorage.clear();
  await initI18n().changeLanguage('pt');
});

/**
 * The venue's entry with this phone as its console reads it, and the language it was stored with,
 * which its join SMS in the demo outbox speaks (delivery follows the answer).
 */
async function storedEntry(venueId: string, phone: string) {
  const entry = (await hostQueue(api, venueId)).find((e) => e.phone === phone);
  if (!entry) return undefined;
  let lang: string | undefined;
  await waitFor(
    async () => {
      lang = await joinSmsLanguage(api, phone);
      expect(lang).toBeDefined();
    },
    { timeout: 10_000, interval: 100 },
  );
  return { ...entry, lang };
}

/** The newest message the outbox delivered to `to` (delivery follows the answer). */
async function waitForOutbox(to: string): Promise<string> {
  let body = '';
  await waitFor(
    async () => {
      const outbox = (await (await fetch(`${api.baseUrl}/api/dev/outbox`)).json()) as { to: string; body: string }[];
      body = outbox.find((m) => m.to === to)?.body ?? '';
      expect(body).not.toBe('');
    },
    { timeout: 10_000, interval: 100 },
  );
  return body;
}

describe('join route against the real API', { timeout: 30_000 }, () => {
  it('joins in Portuguese and offers to follow the entry', async () => {
    const user = userEvent.setup();
    renderRoute(`/remote-waitlist/${BISTRO}`);
    expect(await screen.findByRole('heading', { name: 'Entrar na fila de Bistrô Demo' }, { timeout: 15_000 })).toBeInTheDocument();
    const submit = screen.getByRole('button', { name: 'Entrar na fila' });
    expect(submit).toBeDisabled();

    await choosePartySize(user, /Número de pessoas/, '3 lugares');
    expect(screen.getByText(/pelo menos metade do grupo/)).toBeInTheDocument();
    const name = await screen.findByLabelText('Nome e sobrenome');
    await user.type(name, 'Maria');
    await user.tab();
    expect(await screen.findByText('Informe o sobrenome')).toBeInTheDocument();
    await user.type(name, ' Souza');
    await user.type(screen.getByLabelText('Celular'), '11987650999');
    expect(screen.getByLabelText('Celular')).toHaveValue('(11) 98765-0999');
    await user.type(screen.getByLabelText('E-mail (opcional)'), 'maria@');
    await user.tab();
    expect(await screen.findByText('E-mail inválido')).toBeInTheDocument();
    expect(submit).toBeDisabled();
    await user.type(screen.getByLabelText('E-mail (opcional)'), 'example.com');
    await waitFor(() => expect(submit).toBeEnabled());

    await user.click(submit);
    const dialog = await screen.findByRole('dialog', { name: 'Você entrou na fila' }, { timeout: 15_000 });
    expect(within(dialog).getByText('Procure a recepcionista quando chegar.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Acompanhar' })).toBeInTheDocument();

    const row = await storedEntry(BISTRO, '+5511987650999');
    expect(
      row && {
        name: row.name,
        phone: row.phone,
        email: row.email,
        party_size: row.partySize,
        origin_label: row.originLabel,
        lang: row.lang,
      },
    ).toEqual({
      name: 'Maria Souza',
      phone: '+5511987650999',
      email: 'maria@example.com',
      party_size: 3,
      origin_label: 'Widget',
      lang: 'pt',
    });
  });

  it('asks the section and the email where the venue requires them, in English', async () => {
    await initI18n().changeLanguage('en');
    const user = userEvent.setup();
    renderRoute(`/remote-waitlist/${CLUBE}`);
    await choosePartySize(user, /Party size/, '2 seats');
    await user.type(await screen.findByLabelText('Name and surname'), 'John Smith');
    await user.type(screen.getByLabelText('Phone'), '11987650888');
    const submit = screen.getByRole('button', { name: 'Join the waitlist' });
    expect(submit).toBeDisabled();
    expect(screen.getAllByText('Required').length).toBeGreaterThanOrEqual(2);
    await user.type(screen.getByLabelText('Email'), 'john@example.com');
    await user.click(screen.getByRole('button', { name: /Location/ }));
    await user.click(screen.getByRole('option', { name: 'Varanda' }));
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);
    // A login-journey venue: step 1 asks for the code sent by SMS before joining.
    await screen.findByText('Code sent, check your messages', {}, { timeout: 15_000 });
    const outbox = await waitForOutbox('+5511987650888');
    await user.keyboard(/\b(\d{6})\b/.exec(outbox)?.[1] ?? '');
    const getIn = screen.getByRole('button', { name: 'Get in waitlist' });
    await waitFor(() => expect(getIn).toBeEnabled(), { timeout: 15_000 });
    await user.click(getIn);
    expect(await screen.findByRole('dialog', { name: "You've joined the waitlist" }, { timeout: 15_000 })).toBeInTheDocument();

    const row = await storedEntry(CLUBE, '+5511987650888');
    expect(row && { note: row.note, section: row.section, lang: row.lang }).toEqual({
      note: 'Localização: Varanda',
      section: 'Varanda',
      lang: 'en',
    });
  });

  it('follows the venue settings: no disclaimer, a unit note, no receptionist hint, special wording', async () => {
    await patchVenueSettings(api, BISTRO, {
      settings: {
        hidePriorityDisclaimer: true,
        hideReceptionistHint: true,
        noteMode: 'unit',
        wording: { pt: { 'join.successTitle': 'Pronto, você está na fila!' } },
      },
    });
    const user = userEvent.setup();
    renderRoute(`/remote-waitlist/${BISTRO}`);
    await choosePartySize(user, /Número de pessoas/, '1 lugar');
    await user.type(await screen.findByLabelText('Nome e sobrenome'), 'Rita Lee');
    expect(screen.queryByText(/pelo menos metade do grupo/)).toBeNull();
    await user.type(screen.getByLabelText('Celular'), '11987650777');
    const submit = screen.getByRole('button', { name: 'Entrar na fila' });
    expect(screen.getByLabelText('Unidade')).toBeInTheDocument();
    expect(screen.getByText('Obrigatório')).toBeInTheDocument();
    expect(submit).toBeDisabled();
    await user.type(screen.getByLabelText('Unidade'), 'Loja Centro');
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);
    const dialog = await screen.findByRole('dialog', { name: 'Pronto, você está na fila!' }, { timeout: 15_000 });
    expect(within(dialog).queryByText('Procure a recepcionista quando chegar.')).toBeNull();
  });
});
