import { type ComponentProps, Suspense, lazy } from 'react';

const loadModal = () => import('./modal');
const LoadedModal = lazy(() => loadModal().then((m) => ({ default: m.Modal })));

/**
 * Fetches the modal's code ahead, at a page's first interaction: a dialog that must open offline
 * (a join sent without network, docs/product.md §12.7) cannot fetch it then.
 */
export const preloadModal = (): void => void loadModal();

/**
 * The modal of docs/product.md §12, loaded the first time one opens: a closed modal renders nothing,
 * so the diner pages' first load does not carry its code (the position page's JS budget is 120 KB).
 */
export function Modal(props: ComponentProps<typeof LoadedModal>) {
  if (!props.open) return null;
  return (
    <Suspense fallback={null}>
      <LoadedModal {...props} />
    </Suspense>
  );
}
