import { type ComponentProps, Suspense, lazy } from 'react';

const LoadedModal = lazy(() => import('./modal').then((m) => ({ default: m.Modal })));

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
