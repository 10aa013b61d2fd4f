export type ModalType = 'error' | 'noIcon' | 'closed' | 'success' | 'warning';

/** The icon on top of a modal; decorative, the title carries the meaning. */
export function ModalIcon({ type }: { type: ModalType }) {
  if (type === 'noIcon') return null;
  return (
    <svg className={`modal__icon modal__icon--${type}`} viewBox="0 0 48 48" width="48" height="48" aria-hidden="true" focusable="false">
      <circle cx="24" cy="24" r="22" fill="currentColor" opacity="0.14" />
      {type === 'success' && (
        <path d="M14 25l7 7 13-15" fill="none" stroke="currentColor" strokeWidth="4" strokeLinecap="round" strokeLinejoin="round" />
      )}
      {type === 'error' && <path d="M16 16l16 16M32 16L16 32" stroke="currentColor" strokeWidth="4" strokeLinecap="round" />}
      {type === 'warning' && (
        <>
          <path d="M24 13v14" stroke="currentColor" strokeWidth="4" strokeLinecap="round" />
          <circle cx="24" cy="34" r="2.6" fill="currentColor" />
        </>
      )}
      {type === 'closed' && (
        <>
          <rect x="15" y="22" width="18" height="13" rx="2" fill="currentColor" />
          <path d="M19 22v-4a5 5 0 0110 0v4" fill="none" stroke="currentColor" strokeWidth="3" />
        </>
      )}
    </svg>
  );
}
