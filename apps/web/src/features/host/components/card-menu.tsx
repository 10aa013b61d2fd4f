import { useEffect, useId, useRef, useState } from 'react';

export interface CardMenuItem {
  key: string;
  label: string;
  onSelect: () => void;
  disabled?: boolean;
  /** A switch (priority): said as pressed or not. */
  pressed?: boolean;
}

/**
 * A card's other actions on a phone (docs/decisions/032-the-door-on-a-busy-night.md): a disclosure
 * button (`aria-expanded`) and a list of plain buttons. Opening it puts the focus on the first
 * action; Escape closes it and gives the focus back to the button, as does choosing an action;
 * a tap or the focus elsewhere closes it.
 */
export function CardMenu({ label, name, items }: { label: string; name: string; items: readonly CardMenuItem[] }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    menu.current?.querySelector<HTMLButtonElement>('button:not(:disabled)')?.focus();
    const outside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) toggle.current?.focus();
  };

  return (
    <div
      ref={root}
      className="host-menu"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.stopPropagation();
          close(true);
        }
      }}
      onBlur={(event) => {
        if (open && !root.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={toggle}
        type="button"
        className="host-action host-menu__toggle"
        aria-label={name}
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
      >
        {label} <span aria-hidden="true">▾</span>
      </button>
      <div ref={menu} id={id} className="host-menu__list" hidden={!open}>
        {items.map((item) => (
          <button
            key={item.key}
            type="button"
            className="host-menu__item"
            disabled={item.disabled}
            aria-pressed={item.pressed}
            onClick={() => {
              close(true);
              item.onSelect();
            }}
          >
            {item.label}
          </button>
        ))}
      </div>
    </div>
  );
}
