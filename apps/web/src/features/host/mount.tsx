import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { HostConsole } from './components/host-console';
import { createHostQueryClient } from './lib/host-query-client';

/**
 * Entry of the host console's own build (vite.host.config.ts). The console is built apart from the
 * diner app, with its own copy of React and the other libraries, so that nothing it imports can
 * change how the diner pages are split into chunks: the diner pages load exactly what they loaded
 * before the console existed. The diner router's /host route calls this with an element to fill.
 */
export function mountHostConsole(element: HTMLElement): () => void {
  const root = createRoot(element);
  root.render(
    <StrictMode>
      <QueryClientProvider client={createHostQueryClient()}>
        <HostConsole />
      </QueryClientProvider>
    </StrictMode>,
  );
  return () => root.unmount();
}
