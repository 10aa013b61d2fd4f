import { render } from '@testing-library/react';
import { MemoryRouter } from '../lib/router';
import { AppProviders } from '../app/providers';
import { AppRoutes } from '../app/router';

/** Renders the whole app at a path with the real providers (query client, i18n, router). */
export function renderRoute(path: string) {
  return render(
    <AppProviders>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
      </MemoryRouter>
    </AppProviders>,
  );
}
