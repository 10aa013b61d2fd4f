import { type InputHTMLAttributes, type ReactNode, type Ref, useId } from 'react';
import './field.css';

interface TextInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'prefix'> {
  label: string;
  /** Shown while the field is empty. */
  hint?: string;
  /** Shown when the field is filled and invalid (docs/product.md §15). */
  error?: string;
  /** Whether the field holds a value; decides between hint and error hint. */
  filled: boolean;
  /** Show the error even while empty: the server refused the field (docs/product.md §15). */
  errorWhenEmpty?: boolean;
  ref?: Ref<HTMLInputElement>;
  /** Rendered before the input inside the same frame (the phone's country button). */
  prefix?: ReactNode;
}

/** Text input of docs/product.md §12: label, a hint when empty, an error hint when invalid and filled. */
export function TextInput({ label, hint, error, filled, errorWhenEmpty = false, ref, prefix, className, ...inputProps }: TextInputProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const showError = (filled || errorWhenEmpty) && Boolean(error);
  const message = showError ? error : !filled ? hint : undefined;
  return (
    <div className={`field${showError ? ' field--invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <div className="field__frame">
        {prefix}
        <input
          {...inputProps}
          ref={ref}
          id={id}
          className="field__input"
          aria-invalid={showError || undefined}
          aria-describedby={message ? hintId : undefined}
        />
      </div>
      <p id={hintId} className={showError ? 'field__error' : 'field__hint'} aria-live="polite">
        {message ?? ''}
      </p>
    </div>
  );
}
