import { CODE_LENGTH } from '@vez/contract';
import { type ClipboardEvent, type KeyboardEvent, useRef } from 'react';

interface CodeBoxesProps {
  /** The digits typed so far, one per box ('' for an empty box). */
  digits: readonly string[];
  onChange: (digits: string[]) => void;
  /** Called with the whole code when the last box gets its digit (docs/product.md §15). */
  onComplete: (code: string) => void;
  /** Accessible name of box n (1-based). */
  boxLabel: (n: number) => string;
  groupLabel: string;
  disabled?: boolean;
  invalid?: boolean;
  describedBy?: string;
  /** Focus the first box on mount (entering step 1, or a new try after a wrong code). */
  autoFocus?: boolean;
}

export const emptyCode = (): string[] => Array.from({ length: CODE_LENGTH }, () => '');

/**
 * Six single-digit boxes (docs/product.md §15): non-digits are stripped and one digit is kept per box;
 * typing moves to the next box, a paste (or an autofilled one-time code) of several digits fills
 * the boxes from the current one, backspace on an empty box moves back and clears it, and the
 * digit that completes the code submits it.
 */
export function CodeBoxes({
  digits,
  onChange,
  onComplete,
  boxLabel,
  groupLabel,
  disabled,
  invalid,
  describedBy,
  autoFocus,
}: CodeBoxesProps) {
  const inputs = useRef<(HTMLInputElement | null)[]>([]);
  const focus = (index: number) => inputs.current[Math.max(0, Math.min(CODE_LENGTH - 1, index))]?.focus();

  const fill = (from: number, typed: string) => {
    const incoming = typed.replace(/\D/g, '').slice(0, CODE_LENGTH - from);
    if (!incoming) return;
    const next = [...digits];
    // A whole code pasted into any box replaces the code from the start.
    const start = incoming.length === CODE_LENGTH ? 0 : from;
    [...incoming].forEach((digit, offset) => {
      next[start + offset] = digit;
    });
    onChange(next);
    const lastFilled = start + incoming.length - 1;
    focus(lastFilled + 1);
    if (lastFilled === CODE_LENGTH - 1 && next.every((d) => d !== '')) onComplete(next.join(''));
  };

  const onKeyDown = (index: number) => (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace' && digits[index] === '' && index > 0) {
      event.preventDefault();
      const next = [...digits];
      next[index - 1] = '';
      onChange(next);
      focus(index - 1);
    } else if (event.key === 'ArrowLeft') {
      focus(index - 1);
    } else if (event.key === 'ArrowRight') {
      focus(index + 1);
    }
  };

  const onPaste = (index: number) => (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    fill(index, event.clipboardData.getData('text'));
  };

  return (
    <div className="code-boxes" role="group" aria-label={groupLabel} aria-describedby={describedBy}>
      {digits.map((digit, index) => (
        <input
          // The boxes never reorder: the index is their identity.
          key={index}
          ref={(el) => {
            inputs.current[index] = el;
          }}
          className="code-boxes__box"
          aria-label={boxLabel(index + 1)}
          aria-invalid={invalid || undefined}
          inputMode="numeric"
          autoComplete={index === 0 ? 'one-time-code' : 'off'}
          pattern="[0-9]*"
          autoFocus={autoFocus && index === 0}
          disabled={disabled}
          value={digit}
          onKeyDown={onKeyDown(index)}
          onPaste={onPaste(index)}
          onFocus={(event) => event.target.select()}
          onChange={(event) => {
            const typed = event.target.value.replace(/\D/g, '');
            if (typed === '') {
              const next = [...digits];
              next[index] = '';
              onChange(next);
              return;
            }
            let incoming = typed;
            // The box held a digit and got another: keep the new one.
            if (digit !== '' && typed.length === 2) incoming = typed.replace(digit, '') || digit;
            // An autofilled code landing next to an old digit: the code is the last six.
            else if (typed.length > CODE_LENGTH) incoming = typed.slice(-CODE_LENGTH);
            fill(index, incoming);
          }}
        />
      ))}
    </div>
  );
}
