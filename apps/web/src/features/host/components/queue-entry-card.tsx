import type { HostEntry } from '@vez/contract';
import { useId, useState } from 'react';
import type { EntryAction } from '../hooks/use-entry-actions';
import { minutesSince } from '../lib/format';
import { useHostT } from '../lib/host-i18n';
import { CardMenu } from './card-menu';
import { HoldCountdown } from './hold-countdown';

interface Props {
  entry: HostEntry;
  now: number;
  busy: boolean;
  /** The party just did something (docs/product.md §7): the card stands out for a few seconds. */
  highlighted?: boolean;
  onAction: (action: EntryAction) => void;
  onEdit: () => void;
  onThread: () => void;
  onResend: (messageId: string) => void;
  /** The phone layout: one primary action, the rest in a menu. */
  compact?: boolean;
  /** Under a section title (called / waiting): the name is a level-3 heading. */
  nested?: boolean;
  /** Why the last action on this party was refused (a send bound, a party that has ended), shown by its buttons. */
  error?: string | undefined;
}

/** One party: who, how many, how long against the estimate, and what the host can do with it. */
export function QueueEntryCard({
  entry,
  now,
  busy,
  highlighted = false,
  onAction,
  onEdit,
  onThread,
  onResend,
  error,
  compact = false,
  nested = false,
}: Props) {
  const Heading = nested ? 'h3' : 'h2';
  const { t, i18n } = useHostT();
  const time = (at: string) => new Date(at).toLocaleTimeString(i18n.language, { hour: '2-digit', minute: '2-digit' });
  const delivery = entry.lastMessage;
  const [late, setLate] = useState(false);
  const isLate = late && entry.status === 'called' && entry.holdUntil !== null;
  const nameId = useId();
  const waited = minutesSince(entry.arrivedAt, now);
  const estimate = entry.estimatedTime ?? null;
  const isCalled = entry.status === 'called';
  const name = entry.name ?? t('entry.noName');
  const id = entry._id;
  return (
    <li
      className={`host-entry${isCalled ? ' host-entry--called' : ''}${entry.priority ? ' host-entry--priority' : ''}${highlighted ? ' host-entry--alert' : ''}${isLate ? ' host-entry--late' : ''}`}
      data-alert={highlighted || undefined}
      aria-labelledby={nameId}
    >
      <div className="host-entry__head">
        <span className="host-entry__pos" aria-label={isCalled ? t('entry.called') : t('entry.position', { pos: entry.globalPos })}>
          {isCalled ? '✓' : entry.globalPos}
        </span>
        <div className="host-entry__who">
          <Heading id={nameId} className="host-entry__name">
            {name}
          </Heading>
          <p className="host-entry__meta">
            <span>{t('entry.party', { count: entry.partySize })}</span>
            {/* docs/product.md §6: a walk-in without a phone is called out by its ticket ("senha"). */}
            {entry.phone ? (
              <span>#{entry.customerTab}</span>
            ) : (
              <span className="host-ticket" data-testid="entry-ticket" title={t('entry.noPhone')}>
                {t('entry.ticket', { tab: entry.customerTab })}
              </span>
            )}
            <span>{t(entry.originLabel === 'Host' ? 'entry.originHost' : 'entry.originRemote')}</span>
            {entry.priority && <span className="host-badge host-badge--priority">{t('entry.priority')}</span>}
            {/* docs/product.md §10: the party said yes to WhatsApp. */}
            {entry.whatsappOptIn && (
              <span className="host-badge" data-testid="entry-whatsapp">
                {t('optIn.whatsapp')}
              </span>
            )}
            {isCalled && <span className="host-badge host-badge--called">{t('entry.called')}</span>}
            {isCalled && entry.calls > 1 && <span>{t('entry.calls', { count: entry.calls })}</span>}
            {isCalled && entry.holdUntil && <HoldCountdown until={entry.holdUntil} onLate={setLate} />}
          </p>
        </div>
        <p className="host-entry__time">
          <span>{t(compact ? 'entry.waitedShort' : 'entry.waited', { count: waited })}</span>
          {estimate !== null && !isCalled && <span>{t('entry.estimate', { count: estimate })}</span>}
          {/* docs/product.md §4: what the party was promised at join; past its top, the card says so. */}
          {entry.quoted && !isCalled && (
            <span className={waited > entry.quoted.high ? 'host-late' : undefined} data-testid="entry-quoted">
              {t('entry.quoted', { low: entry.quoted.low, high: entry.quoted.high })}
            </span>
          )}
        </p>
      </div>
      {(entry.note || entry.phone) && (
        <p className="host-entry__note">
          {entry.phone && <span>{entry.phone}</span>}
          {entry.note && <span>{entry.note}</span>}
        </p>
      )}
      {(entry.reply || entry.unread > 0 || delivery) && (
        <p className="host-entry__talk">
          {entry.reply && (
            <span className="host-reply" data-testid="entry-reply">
              {t(`reply.${entry.reply.kind}`, { count: entry.reply.minutes ?? 0 })} ·{' '}
              <time dateTime={entry.reply.at}>{time(entry.reply.at)}</time>
            </span>
          )}
          {entry.unread > 0 && <span className="host-badge host-badge--unread">{t('thread.unread', { count: entry.unread })}</span>}
          {delivery && (
            <span className={`host-delivery host-delivery--${delivery.status}`} data-testid="entry-delivery">
              {delivery.fallbackFrom === 'whatsapp' && <>{t('delivery.fallback')} · </>}
              {t(delivery.channel === 'whatsapp' ? 'delivery.label_whatsapp' : 'delivery.label')}: {t(`delivery.${delivery.status}`)}
            </span>
          )}
          {delivery?.status === 'failed' && (
            <button type="button" className="host-action" disabled={busy} onClick={() => onResend(delivery._id)}>
              {t('delivery.again')}
            </button>
          )}
        </p>
      )}
      {error && (
        <p role="alert" className="host-error host-entry__error">
          {error}
        </p>
      )}
      <div className="host-entry__actions">
        {compact ? (
          // A phone: one primary action (call, or seat once called) and the rest in a menu
          // (docs/decisions/032-the-door-on-a-busy-night.md).
          <>
            <button
              type="button"
              className={`host-action ${isCalled ? 'host-action--seat' : 'host-action--call'} host-action--primary`}
              disabled={busy}
              aria-busy={busy || undefined}
              onClick={() => onAction({ kind: isCalled ? 'seat' : 'call', entryId: id })}
            >
              {t(isCalled ? 'action.seat' : 'action.call')}
            </button>
            <CardMenu
              label={t('action.more')}
              name={t('action.moreFor', { name })}
              items={[
                isCalled
                  ? { key: 'call', label: t('action.callAgain'), disabled: busy, onSelect: () => onAction({ kind: 'call', entryId: id }) }
                  : { key: 'seat', label: t('action.seat'), disabled: busy, onSelect: () => onAction({ kind: 'seat', entryId: id }) },
                {
                  key: 'noShow',
                  label: t('action.noShow'),
                  disabled: busy,
                  onSelect: () => onAction({ kind: 'cancel', entryId: id, reason: 'NoShow' }),
                },
                {
                  key: 'remove',
                  label: t('action.remove'),
                  disabled: busy,
                  onSelect: () => onAction({ kind: 'cancel', entryId: id, reason: 'Host' }),
                },
                {
                  key: 'priority',
                  label: t('action.priority'),
                  pressed: entry.priority,
                  disabled: busy,
                  onSelect: () => onAction({ kind: 'edit', entryId: id, patch: { priority: !entry.priority } }),
                },
                { key: 'edit', label: t('action.edit'), disabled: busy, onSelect: onEdit },
                {
                  key: 'thread',
                  label: entry.unread > 0 ? t('action.messagesUnread', { count: entry.unread }) : t('action.messages'),
                  onSelect: onThread,
                },
              ]}
            />
          </>
        ) : (
          <>
            <button
              type="button"
              className="host-action host-action--call"
              disabled={busy}
              onClick={() => onAction({ kind: 'call', entryId: id })}
            >
              {t(isCalled ? 'action.callAgain' : 'action.call')}
            </button>
            <button
              type="button"
              className="host-action host-action--seat"
              disabled={busy}
              onClick={() => onAction({ kind: 'seat', entryId: id })}
            >
              {t('action.seat')}
            </button>
            <button
              type="button"
              className="host-action"
              disabled={busy}
              onClick={() => onAction({ kind: 'cancel', entryId: id, reason: 'NoShow' })}
            >
              {t('action.noShow')}
            </button>
            <button
              type="button"
              className="host-action"
              disabled={busy}
              onClick={() => onAction({ kind: 'cancel', entryId: id, reason: 'Host' })}
            >
              {t('action.remove')}
            </button>
            <button
              type="button"
              className="host-action"
              aria-pressed={entry.priority}
              disabled={busy}
              onClick={() => onAction({ kind: 'edit', entryId: id, patch: { priority: !entry.priority } })}
            >
              {t('action.priority')}
            </button>
            <button type="button" className="host-action" disabled={busy} onClick={onEdit}>
              {t('action.edit')}
            </button>
            <button type="button" className="host-action" onClick={onThread}>
              {entry.unread > 0 ? t('action.messagesUnread', { count: entry.unread }) : t('action.messages')}
            </button>
          </>
        )}
      </div>
    </li>
  );
}
