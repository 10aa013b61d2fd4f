import { createContext, useContext } from 'react';

/** The field a save was refused for (the server's path, e.g. `settings.holdMinutes`) and why. */
export interface SettingsFault {
  field: string;
  text: string;
}

export const SettingsFaultContext = createContext<SettingsFault | null>(null);

/** Whether a refusal for `fault` belongs to the form field `field` (itself, or a part of it: `settings.tables.0.seats`). */
export const isFaultOf = (fault: SettingsFault | null, field: string) =>
  fault !== null && (fault.field === field || fault.field.startsWith(`${field}.`));

const idOf = (field: string) => `fault-${field.replace(/[^\w-]/g, '-')}`;

/**
 * What a settings field needs to be marked at fault (docs/decisions/032-the-door-on-a-busy-night.md):
 * `data-field` (the screen scrolls to it and focuses it), `aria-invalid`, the refusal as its
 * description next to its hint, and the refusal's text to show under it.
 */
export function useFieldFault(field: string, hintId?: string) {
  const fault = useContext(SettingsFaultContext);
  const atFault = isFaultOf(fault, field);
  const describedBy = [atFault ? idOf(field) : undefined, hintId].filter(Boolean).join(' ') || undefined;
  return {
    input: { 'data-field': field, 'aria-invalid': atFault || undefined, 'aria-describedby': describedBy },
    message: atFault ? (
      <small id={idOf(field)} className="host-field__error" role="alert">
        {fault?.text}
      </small>
    ) : null,
  };
}
