import type { HostCreateEntryBody, HostEntryResponse } from '@vez/contract';
import type { UseMutationResult } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Modal } from '../../../components/ui/modal';
import { isApiError } from '../../../lib/api-client';
import { currentLanguage } from '../../../lib/i18n';
import { errorText } from '../lib/error-text';
import { useHostT } from '../lib/host-i18n';

interface Props {
  maxPartySize: number;
  mutation: UseMutationResult<HostEntryResponse, Error, HostCreateEntryBody>;
  onClose: () => void;
}

/** A party at the door: name, phone (for the SMS), size, note, priority. */
export function WalkInDialog({ maxPartySize, mutation, onClose }: Props) {
  const { t, i18n } = useHostT();
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [partySize, setPartySize] = useState(2);
  const [note, setNote] = useState('');
  const [priority, setPriority] = useState(false);
  const error = mutation.error;
  const field = isApiError(error) ? error.field : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Numbers typed without a country code are Brazilian (the product's default country).
    const digits = phone.replace(/[^\d+]/g, '');
    const e164 = digits.startsWith('+') ? digits : `+55${digits}`;
    const body: HostCreateEntryBody = {
      customer: { name: name.trim(), phone: e164 },
      partySize,
      priority,
      lang: currentLanguage(i18n.language),
    };
    if (note.trim()) body.note = note.trim();
    mutation.mutate(body, { onSuccess: onClose });
  };

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
      <form id="walk-in-form" className="host-form" onSubmit={submit}>
        <label className="host-field">
          <span>{t('walkIn.name')}</span>
          <input
            required
            autoComplete="off"
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={field === 'customer.name'}
          />
        </label>
        <label className="host-field">
          <span>{t('walkIn.phone')}</span>
          <input
            required
            type="tel"
            inputMode="tel"
            autoComplete="off"
            value={phone}
            onChange={(e) => setPhone(e.target.value)}
            aria-invalid={field === 'customer.phone'}
          />
          <small>{t('walkIn.phoneHint')}</small>
        </label>
        <label className="host-field">
          <span>{t('walkIn.partySize')}</span>
          <input
            required
            type="number"
            min={1}
            max={maxPartySize}
            value={partySize}
            onChange={(e) => setPartySize(Number(e.target.value))}
            aria-invalid={field === 'partySize'}
          />
        </label>
        <label className="host-field">
          <span>{t('walkIn.note')}</span>
          <textarea rows={2} maxLength={255} value={note} onChange={(e) => setNote(e.target.value)} />
        </label>
        <label className="host-check">
          <input type="checkbox" checked={priority} onChange={(e) => setPriority(e.target.checked)} />
          <span>{t('walkIn.priority')}</span>
        </label>
        <p role="alert" className="host-error">
          {error ? errorText(t, error) : ''}
        </p>
      </form>
    </Modal>
  );
}
