/** The generic Return button of docs/product.md §12: one step back in the browser history. */
export function ReturnButton({ label }: { label: string }) {
  return (
    <button type="button" className="return-button" onClick={() => window.history.back()}>
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
        <path d="M15 5l-7 7 7 7" fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      {label}
    </button>
  );
}
