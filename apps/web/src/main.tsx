import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { startErrorReporter } from './lib/error-reporter';
import './styles/global.css';

const root = document.getElementById('root');
if (root) createRoot(root).render(<StrictMode><App /></StrictMode>);

// The error reporter (and, with a DSN, the Sentry SDK) loads after the first paint.
const afterPaint = (fn: () => void) =>
  'requestIdleCallback' in window ? window.requestIdleCallback(fn, { timeout: 3000 }) : setTimeout(fn, 1500);
afterPaint(() => void startErrorReporter());
