import type { HostMeResponse } from '@vez/contract';
import { staffInvitePath } from '@vez/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../../../config/paths';
import { initI18n } from '../../../lib/i18n';
import { ConsoleLayout } from '../components/console-layout';
import { inviteTokenOf, screensFor } from './host-location';

const BISTRO = '6553f1a2b3c4d5e6f7a8b901';
const me = (role: 'owner' | 'host'): HostMeResponse => ({
  staff: { _id: 's1', email: 'ana@bistro.example' },
  venues: [{ _id: BISTRO, slug: 'bistro-demo', name: { pt: 'Bistrô Demo' }, role }],
});

beforeEach(async () => {
  await initI18n().changeLanguage('pt');
});

describe('the console by role (docs/decisions/023-staff-roles.md)', () => {
  it('hosts do not get the owners’ screens; everyone gets their account', () => {
    expect(screensFor('owner')).toEqual(['queue', 'today', 'settings', 'poster', 'team', 'account']);
    expect(screensFor('host')).toEqual(['queue', 'today', 'poster', 'account']);
  });

  it.each([
    ['owner', ['Fila', 'Hoje', 'Configurações', 'Cartaz', 'Equipe', 'Minha conta']],
    ['host', ['Fila', 'Hoje', 'Cartaz', 'Minha conta']],
  ] as const)('the bar of an %s lists %j', (role, names) => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ConsoleLayout me={me(role)} venueId={BISTRO} screen="queue">
          <p>screen</p>
        </ConsoleLayout>
      </QueryClientProvider>,
    );
    const nav = screen.getByRole('navigation', { name: 'Telas do painel' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(names);
  });

  it('reads the token of an invitation link, the same link the server writes into the email', () => {
    const token = 'q3Jx0Yb6tY1mRk2c9Zf8Hh3nLw5Vd7Ea1Pz4Uo6Ss0A';
    expect(paths.hostInvite.href(token)).toBe(staffInvitePath(token));
    expect(inviteTokenOf(paths.hostInvite.href(token))).toBe(token);
    expect(inviteTokenOf(`${paths.hostInvite.href(token)}/`)).toBe(token);
    expect(inviteTokenOf(paths.host.href(BISTRO, 'team'))).toBeUndefined();
    expect(inviteTokenOf('/host/invite/')).toBeUndefined();
  });
});
