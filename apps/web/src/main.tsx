import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { prefetchForLocation } from './app/prefetch';
import { createQueryClient } from './lib/query-client';
import { startErrorReporter } from './lib/error-reporter';
import './styles/global.css';

const root = document.getElementById('root');
const queryClient = createQueryClient();
prefetchForLocation(queryClient, window.location.pathname);
// A transition lets React yield while it builds the first screen: no single long main-thread task.
if (root) {
  const reactRoot = createRoot(root);
  startTransition(() => reactRoot.render(<StrictMode><App queryClient={queryClient} /></StrictMode>));
}

// The error reporter (and, with a DSN, the Sentry SDK) loads after the first paint.
const afterPaint = (fn: () => void) =>
  'requestIdleCallback' in window ? window.requestIdleCallback(fn, { timeout: 3000 }) : setTimeout(fn, 1500);
afterPaint(() => void startErrorReporter());
