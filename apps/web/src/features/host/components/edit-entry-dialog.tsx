import type { HostEntry, HostEntryPatch } from '@vez/contract';
import { type FormEvent, useState } from 'react';
import { Modal } from '../../../components/ui/modal';
import { useHostT } from '../lib/host-i18n';

interface Props {
  entry: HostEntry;
  maxPartySize: number;
  onSave: (patch: HostEntryPatch) => void;
  onClose: () => void;
}

/** Party size and note of one party (priority has its own toggle on the card). */
export function EditEntryDialog({ entry, maxPartySize, onSave, onClose }: Props) {
  const { t } = useHostT();
  const [partySize, setPartySize] = useState(entry.partySize);
  const [note, setNote] = useState(entry.note ?? '');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave({ partySize, note: note.trim() });
    onClose();
  };

  return (
    <Modal
      open
      title={t('edit.title', { name: entry.name ?? `#${entry.customerTab}` })}
      onClose={onClose}
      closeLabel={t('close')}
      actions={
        <button type="submit" form="edit-entry-form" className="button button--primary button--block">
          {t('edit.save')}
        </button>
      }
    >
      <form id="edit-entry-form" className="host-form" onSubmit={submit}>
        <label className="host-field">
          <span>{t('walkIn.partySize')}</span>
          <input
            required
            type="number"
            min={1}
            max={maxPartySize}
            value={partySize}
            onChange={(e) => setPartySize(Number(e.target.value))}
          />
        </label>
        <label className="host-field">
          <span>{t('walkIn.note')}</span>
          <textarea rows={3} maxLength={255} value={note} onChange={(e) => setNote(e.target.value)} />
        </label>
      </form>
    </Modal>
  );
}
