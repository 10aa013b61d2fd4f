/**
 * react-i18next imports `use-sync-external-store/shim`, a fallback for React before 18 (CommonJS,
 * with its own copy of the hook). React 19 has the hook: vite.config.ts points that import here,
 * which keeps the shim's code off every diner page (the position page's JS budget is 120 KB).
 */
export { useSyncExternalStore } from 'react';
