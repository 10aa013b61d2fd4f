import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from '../../lib/router';
import { beforeEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { callParty, cancelParty, seatParty } from '../../test/demo-host-api';
import { entryStatus, joinBistro } from '../../test/entries';
import { setUpTestApi } from '../../test/set-up-test-api';
import { renderRoute } from '../../test/render-route';
import { AppProviders } from '../providers';
import { AppRoutes } from '../router';

const BISTRO = '6553f1a2b3c4d5e6f7a8b901';
const api = setUpTestApi();

beforeEach(async () => {
  sessionStorage.clear();
  localStorage.clear();
  await initI18n().changeLanguage('pt');
});

const join = (partySize = 2) => joinBistro(api, partySize);

/** The entry's status and cancel reason, as the diner's status route answers them. */
async function entryRow(id: string) {
  const { status, cancelReason } = await entryStatus(api, id);
  return { status, cancel_reason: cancelReason };
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

const findTitle = (name: string) => screen.findByRole('heading', { name }, { timeout: 5000 });

describe('the position route against the real API', { timeout: 30_000 }, () => {
  it('shows a waiting diner the position, party, order pad, notices and both buttons', async () => {
    const { id } = await join(3);
    renderRoute(`/waitlist/${id}`);
    const panel = (await findTitle('Sua posição na fila')).closest('section') as HTMLElement;
    expect(within(panel).getByTestId('position-number').textContent).toMatch(/^\d+$/);
    expect(within(panel).getByText('Grupo de 3 pessoas')).toBeInTheDocument();
    expect(within(panel).getByText(/^Número da comanda: \d+$/)).toBeInTheDocument();
    expect(within(panel).getByText(/^Posição geral na fila: \d+$/)).toBeInTheDocument();
    expect(within(panel).getByText('Atualizado em tempo real')).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Compartilhar' })).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Sair da fila' })).toBeInTheDocument();
    expect(screen.getByText('É preciso que pelo menos metade do grupo esteja presente para entrar.')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Termos de uso e fila de espera' })[0]).toHaveAttribute('href', '/terms-service');
    // The demo bistro has a menu: the footer prompt links to it.
    expect(await screen.findByRole('link', { name: 'Ver o cardápio' }, { timeout: 5000 })).toHaveAttribute(
      'href',
      expect.stringMatching(/menu/),
    );
  });

  it('leaves after the confirmation, with reason Customer', async () => {
    const user = userEvent.setup();
    const { id } = await join();
    renderRoute(`/waitlist/${id}`);
    await user.click(await screen.findByRole('button', { name: 'Sair da fila' }, { timeout: 5000 }));
    // The confirmation's code loads on the first tap (its dialog comes a moment later).
    const dialog = await screen.findByRole('dialog', { name: 'Deseja sair da fila?' });
    await user.click(within(dialog).getByRole('button', { name: 'Não, continuar' }));
    expect((await entryRow(id)).status).toBe('active');
    await user.click(screen.getByRole('button', { name: 'Sair da fila' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Deseja sair da fila?' })).getByRole('button', { name: 'Sim, sair da fila' }),
    );
    expect(await findTitle('Você não está mais na fila.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sair da fila' })).not.toBeInTheDocument();
    expect(await entryRow(id)).toEqual({ status: 'cancelled', cancel_reason: 'Customer' });
  });

  // Before any test seats a party: the venue has no pace until staff seat some (docs/product.md §4).
  it('shows the estimated wait as a range once the venue has a seating pace, and none before', async () => {
    const { id } = await join();
    renderRoute(`/waitlist/${id}`);
    await findTitle('Sua posição na fila');
    expect(screen.queryByText(/Tempo estimado de espera/)).not.toBeInTheDocument();
    cleanup();

    // Staff seat two parties: their waits give the pace (docs/product.md §4).
    const login = await fetch(`${api.baseUrl}/api/host/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'host@bistro.example', password: 'demo1234' }),
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    for (const party of [await join(), await join()]) {
      const seated = await fetch(`${api.baseUrl}/api/host/venues/${BISTRO}/entries/${party.id}/seat`, {
        method: 'POST',
        headers: { cookie },
      });
      expect(seated.status).toBe(200);
    }
    const { estimatedTime, estimatedRange } = (
      (await (await fetch(`${api.baseUrl}/api/waitlists/${id}/position`)).json()) as {
        waitlist: { estimatedTime: number; estimatedRange: { low: number; high: number } };
      }
    ).waitlist;
    expect(estimatedTime).toBeGreaterThan(0);
    expect(estimatedRange.high).toBeGreaterThan(estimatedRange.low);
    renderRoute(`/waitlist/${id}`);
    const text = `Tempo estimado de espera: ${estimatedRange.low} a ${estimatedRange.high} min`;
    expect(await screen.findByText(text, undefined, { timeout: 5000 })).toBeInTheDocument();
  });

  it('says so when leaving fails (the entry was already taken off)', async () => {
    const user = userEvent.setup();
    const { id } = await join();
    renderRoute(`/waitlist/${id}`);
    await user.click(await screen.findByRole('button', { name: 'Sair da fila' }, { timeout: 5000 }));
    await seatParty(api, BISTRO, id);
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Deseja sair da fila?' })).getByRole('button', { name: 'Sim, sair da fila' }),
    );
    const failure = await screen.findByRole('dialog', { name: 'Não foi possível sair da fila.' }, { timeout: 5000 });
    await user.click(within(failure).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('gives a shared link no leave and no share button', async () => {
    const { shareId } = await join();
    renderRoute(`/waitlist/${shareId}?shared=true`);
    // Worded for someone who follows a party and is not in the queue (docs/product.md §12.2).
    await findTitle('Posição de um grupo na fila');
    expect(screen.queryByRole('button', { name: 'Sair da fila' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Compartilhar' })).not.toBeInTheDocument();
    expect(screen.getByText(/Você só acompanha: não está na fila/)).toBeInTheDocument();
  });

  // What staff do at the door, through the host API.
  const call = (id: string) => callParty(api, BISTRO, id);
  const callAndSeat = async (id: string) => {
    await callParty(api, BISTRO, id);
    await seatParty(api, BISTRO, id);
  };
  const noShow = (id: string) => cancelParty(api, BISTRO, id, 'NoShow');
  it.each([
    ['a call', 'Chegou a sua vez!', call],
    ['a call and a seat', 'Bom apetite!', callAndSeat],
    ['a no-show', 'Você não está mais na fila.', noShow],
  ] as const)('after %s shows "%s" without position or share (leave only while called)', async (_staffAction, title, act) => {
    const { id } = await join();
    await act(id);
    renderRoute(`/waitlist/${id}`);
    expect(await findTitle(title)).toBeInTheDocument();
    expect(screen.queryByTestId('position-number')).not.toBeInTheDocument();
    // The called panel keeps every answer, leaving too (docs/product.md §12.2).
    const isCalled = title === 'Chegou a sua vez!';
    expect(Boolean(screen.queryByRole('button', { name: 'Sair da fila' }))).toBe(isCalled);
    expect(screen.queryByRole('button', { name: 'Compartilhar' })).not.toBeInTheDocument();
  });

  it('shows the failure modal when the position cannot be read', async () => {
    const user = userEvent.setup();
    renderRoute('/waitlist/AAAAAAAAAAAAAAAAAAAAAA');
    const dialog = await screen.findByRole('dialog', { name: 'Não foi possível obter as informações da fila.' }, { timeout: 5000 });
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByText('Não foi possível obter as informações da fila.')).toBeInTheDocument();
  });

  it('takes the passport out of the address at once, keeping the other parameters', async () => {
    const { id } = await join();
    render(
      <AppProviders>
        <MemoryRouter initialEntries={[`/waitlist/${id}?passport=not-a-real-passport-0123456789&lng=pt`]}>
          <AppRoutes />
          <LocationProbe />
        </MemoryRouter>
      </AppProviders>,
    );
    await findTitle('Sua posição na fila');
    expect(screen.getByTestId('location').textContent).toBe(`/waitlist/${id}?lng=pt`);
  });

  it('speaks English', async () => {
    await initI18n().changeLanguage('en');
    const { id } = await join(1);
    renderRoute(`/waitlist/${id}`);
    await findTitle('Your place in the waitlist');
    expect(screen.getByText('Party of 1 person')).toBeInTheDocument();
    expect(screen.getByText('Updated in real time')).toBeInTheDocument();
    expect(screen.getByText('At least half of the party must be present to enter.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Leave the waitlist' })).toBeInTheDocument();
  });
});
