import { type Control, useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { TextInput } from '../../../components/ui/text-input';
import type { JoinFormValues } from '../lib/join-form-schema';
import { validationKey } from '../lib/validation-messages';

interface FormTextFieldProps {
  control: Control<JoinFormValues>;
  name: Exclude<keyof JoinFormValues, 'whatsappOptIn'>;
  label: string;
  hint?: string;
  type?: string;
  autoComplete?: string;
  inputMode?: 'text' | 'email' | 'tel';
  maxLength?: number;
}

/** A text input bound to the join form; its error shows once the field was left or submitted. */
export function FormTextField({ control, name, label, hint, type = 'text', autoComplete, inputMode, maxLength }: FormTextFieldProps) {
  const { t } = useTranslation();
  const { field, fieldState, formState } = useController({ control, name });
  const shouldShow = fieldState.isTouched || formState.isSubmitted;
  const key = shouldShow ? validationKey(fieldState.error?.message) : undefined;
  return (
    <TextInput
      label={label}
      hint={hint}
      error={key ? t(key) : undefined}
      filled={field.value.trim().length > 0}
      errorWhenEmpty={fieldState.error?.type === 'server'}
      type={type}
      autoComplete={autoComplete}
      inputMode={inputMode}
      maxLength={maxLength}
      name={field.name}
      value={field.value}
      onChange={field.onChange}
      onBlur={field.onBlur}
      ref={field.ref}
    />
  );
}
