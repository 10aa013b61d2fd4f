import type { ProductUser } from '@vez/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { createQueryClient } from '../../../lib/query-client';
import { setUpTestApi } from '../../../test/set-up-test-api';
import { productUserKey } from '../api/product-user-query';
import { LoggedUserSummary } from './logged-user-summary';

setUpTestApi();
beforeEach(async () => {
  await initI18n().changeLanguage('pt');
});

const user: ProductUser = {
  _id: 'u1',
  firstName: 'Ana Maria',
  lastName: 'Souza',
  phone: '+5511987654321',
  email: 'ana@example.com',
  birthday: null,
  gender: null,
  createdAt: '2026-11-22T00:00:00.000Z',
  updatedAt: '2026-11-22T00:00:00.000Z',
};

describe('logged-in summary (spec sections 2 and 6)', () => {
  it('shows name, phone formatted by country and email; Editar logs out', async () => {
    const queryClient = createQueryClient();
    queryClient.setQueryData(productUserKey, user);
    render(
      <QueryClientProvider client={queryClient}>
        <LoggedUserSummary user={user} />
      </QueryClientProvider>,
    );
    const summary = screen.getByRole('region', { name: 'Seus dados' });
    expect(within(summary).getByText('Ana Maria Souza')).toBeInTheDocument();
    expect(within(summary).getByText('ana@example.com')).toBeInTheDocument();
    expect(await within(summary).findByText('+55 11 98765 4321')).toBeInTheDocument();
    await userEvent.setup().click(within(summary).getByRole('button', { name: 'Editar' }));
    // POST /product-user/logout answered: the cache says logged out, so the form takes over.
    await waitFor(() => expect(queryClient.getQueryData(productUserKey)).toBeNull(), { timeout: 10_000 });
  });

  it('leaves out the email line when the diner has none', () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <LoggedUserSummary user={{ ...user, email: null }} />
      </QueryClientProvider>,
    );
    expect(screen.queryByText('E-mail')).toBeNull();
  });
});
