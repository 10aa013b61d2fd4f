import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { callParty, messageParty, seatParty } from '../../test/demo-host-api';
import { joinBistro } from '../../test/entries';
import { renderRoute } from '../../test/render-route';
import { setUpTestApi } from '../../test/set-up-test-api';

/** The party's side of the conversation on the position page (docs/product.md §7), against the real API. */
const BISTRO = '6553f1a2b3c4d5e6f7a8b901';
const api = setUpTestApi();

beforeEach(async () => {
  sessionStorage.clear();
  localStorage.clear();
  await initI18n().changeLanguage('pt');
});

const join = () => joinBistro(api);

const panel = async () => (await screen.findByRole('heading', { name: 'Fale com o restaurante' }, { timeout: 5000 })).closest('section')!;

describe('answers and messages on the position page', { timeout: 30_000 }, () => {
  it('while waiting offers "Cheguei" and more time; an answer shows and can be changed', async () => {
    const { id } = await join();
    renderRoute(`/waitlist/${id}`);
    const section = await panel();
    expect(within(section).queryByRole('button', { name: 'Estou a caminho' })).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(within(section).getByRole('button', { name: 'Cheguei' }));
    expect(await within(section).findByText('O restaurante já sabe que você chegou.')).toBeInTheDocument();
    const more = within(section).getByRole('group', { name: 'Preciso de mais tempo' });
    await user.click(within(more).getByRole('button', { name: '+15 min' }));
    expect(await within(section).findByText('O restaurante já sabe que você precisa de mais 15 minutos.')).toBeInTheDocument();
    const stored = (await (await fetch(`${api.baseUrl}/api/waitlists/${id}/position`)).json()) as { waitlist: { reply: unknown } };
    expect(stored.waitlist.reply).toMatchObject({ kind: 'needMoreTime', minutes: 15 });
  });

  it('once called offers "Estou a caminho"', async () => {
    const { id } = await join();
    await callParty(api, BISTRO, id);
    renderRoute(`/waitlist/${id}`);
    const section = await panel();
    await userEvent.setup().click(within(section).getByRole('button', { name: 'Estou a caminho' }));
    expect(await within(section).findByText('O restaurante já sabe que você está a caminho.')).toBeInTheDocument();
  });

  it("shows the venue's messages newest first in a polite live region; a shared link shows them without answers", async () => {
    const { id, shareId } = await join();
    // Staff write twice; the page lists the newer first.
    await messageParty(api, BISTRO, id, 'Faltam uns 10 minutos.');
    await messageParty(api, BISTRO, id, 'Pode vir, a mesa está pronta.');
    renderRoute(`/waitlist/${shareId}?shared=true`);
    const section = await panel();
    const region = within(section).getByTestId('venue-messages');
    expect(region).toHaveAttribute('aria-live', 'polite');
    expect(
      within(region)
        .getAllByRole('listitem')
        .map((li) => li.textContent?.replace(/^\S+\s/, '')),
    ).toEqual(['Pode vir, a mesa está pronta.', 'Faltam uns 10 minutos.']);
    expect(within(section).queryByRole('button')).not.toBeInTheDocument();
  });

  it('says so when the party is no longer on the list (409)', async () => {
    const { id } = await join();
    renderRoute(`/waitlist/${id}`);
    const section = await panel();
    await seatParty(api, BISTRO, id);
    await userEvent.setup().click(within(section).getByRole('button', { name: 'Cheguei' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Você não está mais na fila.'));
  });
});
