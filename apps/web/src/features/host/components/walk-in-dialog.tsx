import { type HostCreateEntryBody, type HostEntryResponse, messages, readPhone } from '@vez/contract';
import type { UseMutationResult } from '@tanstack/react-query';
import { useId } from 'react';
import { type FieldError, useForm } from 'react-hook-form';
import { Modal } from '../../../components/ui/modal';
import { type ApiError, isApiError } from '../../../lib/api-client';
import { currentLanguage } from '../../../lib/i18n';
import { errorText } from '../lib/error-text';
import { useHostT } from '../lib/host-i18n';

interface Props {
  maxPartySize: number;
  /** WhatsApp (docs/product.md §10): the dialog asks, unticked, whether the party wants it. */
  channel?: 'sms' | 'whatsapp';
  mutation: UseMutationResult<HostEntryResponse, Error, HostCreateEntryBody>;
  onClose: () => void;
}

interface WalkInValues {
  name: string;
  phone: string;
  partySize: number;
  note: string;
  priority: boolean;
  whatsappOptIn: boolean;
}

/** The contract's walk-in name (`WalkInName`): any text with a letter. */
const HAS_LETTER = /\p{L}/u;

/** The server's field paths (422 `field`) to the dialog's fields. */
const FIELDS: Record<string, keyof WalkInValues> = {
  'customer.name': 'name',
  'customer.phone': 'phone',
  partySize: 'partySize',
  note: 'note',
};

/**
 * A party at the door: a name is all it needs (docs/product.md §6: one word is enough); a phone for
 * the SMS, optional (without one the card shows the party's ticket to call out), size, note,
 * priority. The phone is read as the server reads it (docs/product.md §15: pasted as people copy
 * it; in Brazil a mobile). Every field error shows at once on submit, and a field the server
 * refuses shows at that field.
 */
export function WalkInDialog({ maxPartySize, channel = 'sms', mutation, onClose }: Props) {
  const { t, i18n } = useHostT();
  const ids = useId();
  const form = useForm<WalkInValues>({
    mode: 'onTouched',
    criteriaMode: 'all',
    defaultValues: { name: '', phone: '', partySize: 2, note: '', priority: false, whatsappOptIn: false },
  });
  const { errors } = form.formState;
  const phoneText = (problem: 'invalid' | 'landline') => (problem === 'landline' ? t('error.mobile') : t('error.fields.customer.phone'));
  // A refusal that names no field of the dialog shows under the form.
  const error = mutation.error;
  const fieldOfError = isApiError(error) && error.field ? FIELDS[error.field] : undefined;

  const showAtField = (apiError: ApiError) => {
    const field = apiError.field ? FIELDS[apiError.field] : undefined;
    if (!field || apiError.status !== 422) return;
    const message = field === 'phone' && apiError.message === messages.mobile ? t('error.mobile') : errorText(t, apiError);
    form.setError(field, { type: 'server', message }, { shouldFocus: true });
  };

  const submit = form.handleSubmit((values) => {
    const phone = values.phone.trim() ? readPhone(values.phone) : null;
    const body: HostCreateEntryBody = {
      customer: { name: values.name.trim(), ...(phone ? { phone: phone.ok ? phone.phone.e164 : values.phone } : {}) },
      partySize: values.partySize,
      priority: values.priority,
      lang: currentLanguage(i18n.language),
    };
    if (channel === 'whatsapp' && values.whatsappOptIn) body.whatsappOptIn = true;
    if (values.note.trim()) body.note = values.note.trim();
    mutation.mutate(body, {
      onSuccess: onClose,
      onError: (failure) => {
        if (isApiError(failure)) showAtField(failure);
      },
    });
  });

  const fieldError = (name: keyof WalkInValues, fieldErrorOf: FieldError | undefined) =>
    fieldErrorOf?.message ? (
      <small id={`${ids}-${name}`} className="host-field__error" role="alert">
        {fieldErrorOf.message}
      </small>
    ) : null;
  const invalid = (name: keyof WalkInValues) => ({
    'aria-invalid': Boolean(errors[name]),
    'aria-describedby': errors[name] ? `${ids}-${name}` : undefined,
  });

  return (
    <Modal
      open
      title={t('walkIn.title')}
      onClose={onClose}
      closeLabel={t('close')}
      actions={
        <button type="submit" form="walk-in-form" className="button button--primary button--block" disabled={mutation.isPending}>
          {t('walkIn.submit')}
        </button>
      }
    >
      <form id="walk-in-form" className="host-form" noValidate onSubmit={submit}>
        <label className="host-field">
          <span>{t('walkIn.name')}</span>
          <input
            autoComplete="off"
            {...form.register('name', { validate: (v) => HAS_LETTER.test(v) || t('error.fields.customer.name') })}
            {...invalid('name')}
          />
          {fieldError('name', errors.name)}
        </label>
        <label className="host-field">
          <span>{t('walkIn.phone')}</span>
          <input
            type="tel"
            inputMode="tel"
            autoComplete="off"
            {...form.register('phone', {
              validate: (v) => {
                if (!v.trim()) return true;
                const phone = readPhone(v);
                return phone.ok || phoneText(phone.problem);
              },
            })}
            {...invalid('phone')}
          />
          {errors.phone ? (
            fieldError('phone', errors.phone)
          ) : (
            <small>{t(channel === 'whatsapp' ? 'walkIn.phoneHintWhatsApp' : 'walkIn.phoneHint')}</small>
          )}
        </label>
        <label className="host-field">
          <span>{t('walkIn.partySize')}</span>
          <input
            type="number"
            min={1}
            max={maxPartySize}
            {...form.register('partySize', {
              valueAsNumber: true,
              validate: (v) => (Number.isInteger(v) && v >= 1 && v <= maxPartySize) || t('error.fields.partySize'),
            })}
            {...invalid('partySize')}
          />
          {fieldError('partySize', errors.partySize)}
        </label>
        <label className="host-field">
          <span>{t('walkIn.note')}</span>
          <textarea rows={2} maxLength={255} {...form.register('note')} {...invalid('note')} />
          {fieldError('note', errors.note)}
        </label>
        {channel === 'whatsapp' && (
          <label className="host-check">
            <input type="checkbox" {...form.register('whatsappOptIn')} />
            <span>{t('walkIn.whatsappOptIn')}</span>
          </label>
        )}
        <label className="host-check">
          <input type="checkbox" {...form.register('priority')} />
          <span>{t('walkIn.priority')}</span>
        </label>
        <p role="alert" className="host-error">
          {error && !fieldOfError ? errorText(t, error) : ''}
        </p>
      </form>
    </Modal>
  );
}
