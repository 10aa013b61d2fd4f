import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
// The join, verification and terms texts, which the app adds with those screens' routes.
import '../locales/forms';

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => cleanup());
