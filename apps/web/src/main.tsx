import { BOOT_IMAGE_CLASS } from '@vez/contract';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { prefetchForLocation } from './app/prefetch';
import { keepBootSpotlight } from './features/venue-info';
import { createQueryClient } from './lib/query-client';
import { startErrorReporter } from './lib/error-reporter';
import './styles/global.css';

const root = document.getElementById('root');
// Before anything replaces the boot screen: its header image stays on show until the venue's own header takes over.
keepBootSpotlight();
const queryClient = createQueryClient();
prefetchForLocation(queryClient, window.location.pathname);

/**
 * Mounts the app once the boot screen has painted its header image, when the server put the
 * venue's image in it: the image shows before any of the app's work, then React replaces the boot
 * screen with the same, already loaded image. Waits 400 ms at most; without an image, a frame
 * (a hidden tab has no frames: 100 ms then).
 */
function afterBootPaint(start: () => void): void {
  let started = false;
  const go = () => {
    if (started) return;
    started = true;
    let ran = false;
    const run = () => {
      if (ran) return;
      ran = true;
      start();
    };
    requestAnimationFrame(() => setTimeout(run, 0));
    setTimeout(run, 100);
  };
  const image = document.querySelector<HTMLImageElement>(`img.${BOOT_IMAGE_CLASS}`);
  if (!image || image.complete) return go();
  setTimeout(go, 400);
  image.decode().then(go, go);
}

if (root) {
  afterBootPaint(() => {
    // A transition lets React yield while it builds the first screen: no single long main-thread task.
    const reactRoot = createRoot(root);
    startTransition(() =>
      reactRoot.render(
        <StrictMode>
          <App queryClient={queryClient} />
        </StrictMode>,
      ),
    );
  });
}

// The error reporter starts after the first paint; with a DSN, the Sentry SDK loads on the first failure only.
const afterPaint = (fn: () => void) =>
  'requestIdleCallback' in window ? window.requestIdleCallback(fn, { timeout: 3000 }) : setTimeout(fn, 1500);
afterPaint(() => void startErrorReporter());
