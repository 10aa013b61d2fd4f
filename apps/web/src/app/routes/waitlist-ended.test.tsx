import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { callParty, cancelParty, leaveQueue, seatParty } from '../../test/demo-host-api';
import { joinBistro } from '../../test/entries';
import { setUpTestApi } from '../../test/set-up-test-api';
import { renderRoute } from '../../test/render-route';

const BISTRO = '6553f1a2b3c4d5e6f7a8b901';
const api = setUpTestApi();

beforeEach(async () => {
  sessionStorage.clear();
  localStorage.clear();
  await initI18n().changeLanguage('pt');
});

/** The called panel and the pages that end (docs/product.md §12.2), against the real API. */
describe('called and ended position pages', { timeout: 30_000 }, () => {
  it('the called panel keeps every answer, and a newer answer replaces the older one on screen', async () => {
    const user = userEvent.setup();
    const { id } = await joinBistro(api);
    await callParty(api, BISTRO, id);
    renderRoute(`/waitlist/${id}`);
    await screen.findByRole('heading', { name: 'Chegou a sua vez!' }, { timeout: 5000 });
    for (const name of ['Estou a caminho', 'Cheguei', '+5 min', '+10 min', '+15 min', 'Sair da fila']) {
      expect(screen.getByRole('button', { name })).toBeInTheDocument();
    }
    await user.click(screen.getByRole('button', { name: 'Estou a caminho' }));
    expect(await screen.findByText('O restaurante já sabe que você está a caminho.', undefined, { timeout: 5000 })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cheguei' }));
    expect(await screen.findByText('O restaurante já sabe que você chegou.', undefined, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByText('O restaurante já sabe que você está a caminho.')).not.toBeInTheDocument();
    // Still every answer after one was given.
    expect(screen.getByRole('button', { name: 'Estou a caminho' })).toBeEnabled();
  });

  // What ends the party, through the API as in service (docs/product.md §8).
  const noShow = (id: string) => cancelParty(api, BISTRO, id, 'NoShow');
  const left = (id: string) => leaveQueue(api, BISTRO, id);
  const removed = (id: string) => cancelParty(api, BISTRO, id, 'Removed');
  it.each([
    ['a no-show', 'Você não está mais na fila.', 'Sua vez foi chamada e o prazo para chegar à recepção terminou.', noShow],
    ['leaving', 'Você não está mais na fila.', 'Você saiu da fila.', left],
    ['a removal', 'Você não está mais na fila.', 'A recepção tirou o seu grupo da fila.', removed],
  ] as const)('after %s says why and offers the join link again', async (_ending, title, why, end) => {
    const { id } = await joinBistro(api);
    await end(id);
    renderRoute(`/waitlist/${id}`);
    await screen.findByRole('heading', { name: title }, { timeout: 5000 });
    await waitFor(() => expect(screen.getByTestId('ended-why')).toHaveTextContent(why));
    expect(screen.getByRole('link', { name: 'Entrar na fila de novo' })).toHaveAttribute('href', `/remote-waitlist/${BISTRO}`);
  });

  it('a seated page says so and offers the join link again', async () => {
    const { id } = await joinBistro(api);
    await callParty(api, BISTRO, id);
    await seatParty(api, BISTRO, id);
    renderRoute(`/waitlist/${id}`);
    await screen.findByRole('heading', { name: 'Bom apetite!' }, { timeout: 5000 });
    expect(screen.getByText('Seu grupo já foi acomodado.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Entrar na fila de novo' })).toHaveAttribute('href', `/remote-waitlist/${BISTRO}`);
  });

  it('a shared link that ended speaks of the party, not to the reader', async () => {
    const { shareId, id } = await joinBistro(api);
    await noShow(id);
    renderRoute(`/waitlist/${shareId}?shared=true`);
    await screen.findByRole('heading', { name: 'Este grupo não está mais na fila.' }, { timeout: 5000 });
    expect(screen.queryByTestId('ended-why')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Entrar na fila deste restaurante' })).toBeInTheDocument();
  });
});
