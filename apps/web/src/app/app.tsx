import type { QueryClient } from '@tanstack/react-query';
import { BrowserRouter } from '../lib/router';
import { AppProviders } from './providers';
import { AppRoutes } from './router';

export function App({ queryClient }: { queryClient?: QueryClient }) {
  return (
    <AppProviders client={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}
