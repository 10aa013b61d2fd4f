import { type ReactNode, useEffect, useId, useRef } from 'react';
import { ModalIcon, type ModalType } from './modal-icon';
import './modal.css';

export type { ModalType };

interface ModalProps {
  open: boolean;
  type?: ModalType;
  title: string;
  children?: ReactNode;
  /** Buttons of the modal; the first one with autoFocus gets the focus. */
  actions?: ReactNode;
  /** false: no close button, no outside click, no Escape (docs/product.md §12). */
  closable?: boolean;
  onClose?: () => void;
  closeLabel?: string;
}

/**
 * The modal of docs/product.md §12 on a native <dialog>: showModal() makes the page behind it inert and
 * keeps the focus inside; focus returns where it was on close. jsdom lacks showModal, hence the
 * fallback to the `open` attribute.
 */
export function Modal({ open, type = 'noIcon', title, children, actions, closable = true, onClose, closeLabel = 'Close' }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const bodyId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!open || !dialog) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (typeof dialog.showModal === 'function') {
      if (!dialog.open) dialog.showModal();
    } else {
      dialog.setAttribute('open', '');
    }
    return () => {
      if (typeof dialog.close === 'function' && dialog.open) dialog.close();
      previous?.focus?.();
    };
  }, [open]);

  if (!open) return null;

  const requestClose = () => {
    if (closable) onClose?.();
  };

  return (
    <dialog
      ref={ref}
      className={`modal modal--${type}`}
      aria-labelledby={titleId}
      aria-describedby={children ? bodyId : undefined}
      onCancel={(event) => {
        event.preventDefault();
        requestClose();
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) requestClose();
      }}
    >
      <div className="modal__panel">
        {closable && (
          <button type="button" className="modal__close" aria-label={closeLabel} onClick={requestClose}>
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
            </svg>
          </button>
        )}
        <ModalIcon type={type} />
        <h2 id={titleId} className="modal__title">
          {title}
        </h2>
        {children && (
          <div id={bodyId} className="modal__body">
            {children}
          </div>
        )}
        {actions && <div className="modal__actions">{actions}</div>}
      </div>
    </dialog>
  );
}
