import { type KeyboardEvent, type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import './dropdown.css';
import './field.css';

export interface DropdownOption {
  value: string;
  label: string;
  /** Shown before the label (a flag). */
  adornment?: ReactNode;
  /** Extra text matched by the search box. */
  keywords?: string;
}

interface DropdownProps {
  label: string;
  /** Hide the visible label (the phone's country button sits inside another field). */
  hideLabel?: boolean;
  placeholder: string;
  options: readonly DropdownOption[];
  value: string | undefined;
  onChange: (value: string) => void;
  /** Accessible name of the button when the visible text is not enough. */
  buttonLabel?: string;
  /** Render the button compact (only adornment and short text). */
  renderValue?: (option: DropdownOption) => ReactNode;
  search?: { label: string; empty: string };
  hint?: string;
  error?: string;
  /** Called on first focus or pointer-down: a chance to prefetch what comes next. */
  onFirstInteraction?: () => void;
  className?: string;
  name?: string;
}

/** Dropdown selector of docs/product.md §12: a button and a listbox at most 140px high, keyboard-operable. */
export function Dropdown(props: DropdownProps) {
  const {
    label,
    hideLabel,
    placeholder,
    options,
    value,
    onChange,
    buttonLabel,
    renderValue,
    search,
    hint,
    error,
    onFirstInteraction,
    className,
    name,
  } = props;
  const id = useId();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const searchInput = useRef<HTMLInputElement>(null);
  const interacted = useRef(false);

  const visible = useMemo(() => {
    const q = normalise(query);
    return q ? options.filter((o) => normalise(`${o.label} ${o.keywords ?? ''}`).includes(q)) : options;
  }, [options, query]);
  const selected = options.find((o) => o.value === value);

  useEffect(() => {
    if (!open) return;
    const onDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    (search ? searchInput.current : list.current)?.focus();
    return () => document.removeEventListener('pointerdown', onDown);
  }, [open, search]);

  useEffect(() => {
    list.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }, [active, open]);

  const firstInteraction = () => {
    if (interacted.current) return;
    interacted.current = true;
    onFirstInteraction?.();
  };
  const openList = () => {
    const index = visible.findIndex((o) => o.value === value);
    setActive(index < 0 ? 0 : index);
    setOpen(true);
  };
  const close = () => {
    setOpen(false);
    setQuery('');
    button.current?.focus();
  };
  const choose = (option: DropdownOption | undefined) => {
    if (!option) return;
    onChange(option.value);
    close();
  };
  const onListKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown') setActive((i) => Math.min(i + 1, visible.length - 1));
    else if (event.key === 'ArrowUp') setActive((i) => Math.max(i - 1, 0));
    else if (event.key === 'Home') setActive(0);
    else if (event.key === 'End') setActive(visible.length - 1);
    else if (event.key === 'Enter') choose(visible[active]);
    else if (event.key === 'Escape') close();
    else if (event.key === 'Tab') setOpen(false);
    else return;
    if (event.key !== 'Tab') event.preventDefault();
  };

  const listId = `${id}-list`;
  const hintId = `${id}-hint`;
  const optionId = (i: number) => `${id}-opt-${i}`;
  const showError = Boolean(error);
  return (
    <div ref={root} className={`field dropdown${showError ? ' field--invalid' : ''}${className ? ` ${className}` : ''}`}>
      <span id={`${id}-label`} className={hideLabel ? 'visually-hidden' : 'field__label'}>
        {label}
      </span>
      <button
        ref={button}
        type="button"
        name={name}
        className="dropdown__button"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-labelledby={buttonLabel ? undefined : `${id}-label ${id}-value`}
        aria-label={buttonLabel}
        aria-describedby={hint || error ? hintId : undefined}
        onFocus={firstInteraction}
        onPointerDown={firstInteraction}
        onClick={() => (open ? close() : openList())}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            openList();
          }
        }}
      >
        <span id={`${id}-value`} className={selected ? 'dropdown__value' : 'dropdown__placeholder'}>
          {selected ? (
            renderValue ? (
              renderValue(selected)
            ) : (
              <>
                {selected.adornment}
                {selected.label}
              </>
            )
          ) : (
            placeholder
          )}
        </span>
        <svg className="dropdown__chevron" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <path d="M6 9l6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
        </svg>
      </button>
      {open && (
        <div className="dropdown__popup">
          {search && (
            <input
              ref={searchInput}
              className="dropdown__search"
              type="search"
              aria-label={search.label}
              placeholder={search.label}
              value={query}
              role="combobox"
              aria-expanded="true"
              aria-controls={listId}
              aria-activedescendant={visible[active] ? optionId(active) : undefined}
              onChange={(event) => {
                setQuery(event.target.value);
                setActive(0);
              }}
              onKeyDown={onListKey}
            />
          )}
          <ul
            ref={list}
            id={listId}
            role="listbox"
            tabIndex={search ? -1 : 0}
            className="dropdown__list"
            aria-labelledby={`${id}-label`}
            aria-activedescendant={!search && visible[active] ? optionId(active) : undefined}
            onKeyDown={search ? undefined : onListKey}
          >
            {visible.map((option, index) => (
              <li
                key={option.value}
                id={optionId(index)}
                data-index={index}
                role="option"
                aria-selected={option.value === value}
                className={`dropdown__option${index === active ? ' dropdown__option--active' : ''}`}
                onPointerMove={() => setActive(index)}
                onClick={() => choose(option)}
              >
                {option.adornment}
                {option.label}
              </li>
            ))}
          </ul>
          {search && visible.length === 0 && <p className="dropdown__empty">{search.empty}</p>}
        </div>
      )}
      {(hint || error) && (
        <p id={hintId} className={showError ? 'field__error' : 'field__hint'}>
          {error ?? hint}
        </p>
      )}
    </div>
  );
}

function normalise(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();
}
