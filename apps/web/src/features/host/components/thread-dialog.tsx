import { type HostEntry, STAFF_MESSAGE_MAX_LENGTH } from '@vez/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Modal } from '../../../components/ui/modal';
import { hostApi } from '../api/host-api';
import { hostKeys } from '../api/query-keys';
import { errorText } from '../lib/error-text';
import { useHostT } from '../lib/host-i18n';

interface Props {
  venueId: string;
  /** The party as the live queue shows it now: a new answer or message refreshes the thread. */
  entry: HostEntry;
  onClose: () => void;
}

/** The conversation with one party (docs/product.md §7): both directions, oldest first, and a reply box. */
export function ThreadDialog({ venueId, entry, onClose }: Props) {
  const { t, i18n } = useHostT();
  const client = useQueryClient();
  const key = hostKeys.thread(venueId, entry._id);
  const thread = useQuery({ queryKey: key, queryFn: () => hostApi.thread(venueId, entry._id) });
  const [text, setText] = useState('');
  const send = useMutation({
    mutationFn: (body: string) => hostApi.sendMessage(venueId, entry._id, body),
    onSuccess: () => {
      setText('');
      void client.invalidateQueries({ queryKey: key });
    },
  });
  const { refetch } = thread;
  // Each change of the party on the live queue (a message, a delivery) reads the thread again.
  useEffect(() => {
    void refetch();
  }, [entry.unread, entry.lastMessage?.status, entry.reply?.at, refetch]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim()) send.mutate(text.trim());
  };
  const time = (at: string) => new Date(at).toLocaleTimeString(i18n.language, { hour: '2-digit', minute: '2-digit' });
  const messages = thread.data?.messages ?? [];

  return (
    <Modal
      open
      title={t('thread.title', { name: entry.name ?? `#${entry.customerTab}` })}
      onClose={onClose}
      closeLabel={t('close')}
      actions={
        <button type="submit" form="thread-form" className="button button--primary button--block" disabled={send.isPending || !text.trim()}>
          {t('thread.send')}
        </button>
      }
    >
      {thread.isError && (
        <p role="alert" className="host-error">
          {errorText(t, thread.error)}
        </p>
      )}
      {messages.length === 0 && thread.isSuccess ? (
        <p className="host-thread__empty">{t('thread.empty')}</p>
      ) : (
        <ol className="host-thread" aria-label={t('thread.label')}>
          {messages.map((m) => (
            <li key={m._id} className={`host-thread__message host-thread__message--${m.direction}`}>
              <span className="host-thread__who">{t(m.direction === 'in' ? 'thread.fromParty' : 'thread.fromVenue')}</span>
              <span className="host-thread__text">{m.text}</span>
              <span className="host-thread__meta">
                <time dateTime={m.at}>{time(m.at)}</time>
                {m.direction === 'out' && m.fallbackFrom === 'whatsapp' && <> · {t('delivery.fallback')}</>}
                {m.direction === 'out' && m.channel && <> · {t(m.channel === 'whatsapp' ? 'thread.byWhatsApp' : 'thread.bySms')}</>}
                {m.direction === 'out' && <> · {t(`delivery.${m.status}`)}</>}
              </span>
            </li>
          ))}
        </ol>
      )}
      <form id="thread-form" className="host-form" onSubmit={submit}>
        <label className="host-field">
          <span>{t(entry.whatsappOptIn ? 'thread.writeWhatsApp' : 'thread.write')}</span>
          <textarea rows={3} maxLength={STAFF_MESSAGE_MAX_LENGTH} value={text} onChange={(e) => setText(e.target.value)} />
        </label>
        <p className="host-thread__count" aria-live="polite">
          {t('thread.count', { count: text.length, max: STAFF_MESSAGE_MAX_LENGTH })}
        </p>
        {send.isError && (
          <p role="alert" className="host-error">
            {errorText(t, send.error)}
          </p>
        )}
      </form>
    </Modal>
  );
}
