import type { HostEntry, WaitlistState } from '@vez/contract';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { hostApi } from '../api/host-api';
import { hostKeys } from '../api/query-keys';
import { type EntryAction, useEntryActions } from '../hooks/use-entry-actions';
import { useLiveQueue, useNow } from '../hooks/use-live-queue';
import { PHONE_QUERY, useMediaQuery } from '../hooks/use-media-query';
import { chimeDataUri, usePartyAlerts } from '../hooks/use-party-alerts';
import { useHostT } from '../lib/host-i18n';
import { errorText } from '../lib/error-text';
import { useTitleBadge } from '../lib/title-badge';
import { BandCounts } from './band-counts';
import { ConnectionNote } from './connection-note';
import { EditEntryDialog } from './edit-entry-dialog';
import { QueueEntryCard } from './queue-entry-card';
import { ThreadDialog } from './thread-dialog';
import { UndoToast, type UndoOffer } from './undo-toast';
import { WaitlistStateBar } from './waitlist-state-bar';
import { WalkInDialog } from './walk-in-dialog';

/** The live queue with its actions, the waitlist switch and the party-size counts. */
export function QueueScreen({ venueId }: { venueId: string }) {
  const { t } = useHostT();
  const alerts = usePartyAlerts();
  const queue = useLiveQueue(venueId, alerts.onEvents);
  const chime = useMemo(chimeDataUri, []);
  const [threadOf, setThreadOf] = useState<string | null>(null);
  const setTitleBadge = useTitleBadge();
  const unread = queue.data?.entries.reduce((sum, e) => sum + e.unread, 0) ?? 0;
  useEffect(() => {
    setTitleBadge(unread);
    return () => setTitleBadge(0);
  }, [unread, setTitleBadge]);
  const settings = useQuery({ queryKey: hostKeys.settings(venueId), queryFn: () => hostApi.settings(venueId) });
  const actions = useEntryActions(venueId);
  const now = useNow();
  const isPhone = useMediaQuery(PHONE_QUERY);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<HostEntry | null>(null);
  const [undo, setUndo] = useState<UndoOffer | null>(null);
  const [error, setError] = useState('');
  // A refused action on a party shows on its card, next to the button (a send bound, an ended party,
  // no network): one line per party, so a refusal on one card never hides another's.
  const [cardErrors, setCardErrors] = useState<ReadonlyMap<string, string>>(new Map());
  const setCardError = (entryId: string, text: string | null) =>
    setCardErrors((current) => {
      const next = new Map(current);
      if (text === null) next.delete(entryId);
      else next.set(entryId, text);
      return next;
    });
  const [chosenState, setChosenState] = useState<WaitlistState | null>(null);
  const clearUndo = useCallback(() => setUndo(null), []);

  useEffect(() => {
    setError('');
    setCardErrors(new Map());
  }, [venueId]);

  // One promise per tap (not `mutate`'s callbacks, which only the latest tap gets): taps on two
  // cards each end with their own answer (docs/decisions/032-the-door-on-a-busy-night.md).
  const act = (action: EntryAction, entry: HostEntry) => {
    setError('');
    setCardError(entry._id, null);
    actions.entry.mutateAsync(action).then(
      () => {
        const ended =
          action.kind === 'seat' ? 'seated' : action.kind === 'cancel' ? (action.reason === 'NoShow' ? 'noShow' : 'removed') : null;
        if (ended) setUndo({ entryId: entry._id, message: t(`undo.${ended}`, { name: entry.name ?? `#${entry.customerTab}` }) });
        else if (action.kind === 'restore') setUndo(null);
      },
      // An undone party is off the list until restored: its refusal shows above the list.
      (e: unknown) => (action.kind === 'restore' ? setError(errorText(t, e)) : setCardError(entry._id, errorText(t, e))),
    );
  };

  if (queue.isPending) return <Spinner label={t('loading')} />;
  if (queue.isError)
    return (
      <p role="alert" className="host-error">
        {errorText(t, queue.error)}
      </p>
    );
  const { entries, waitlist } = queue.data;
  const maxPartySize = settings.data?.maxPartySize ?? 20;
  const threadEntry = threadOf ? entries.find((e) => e._id === threadOf) : undefined;
  // Called parties on top, in their own list with their hold countdowns (docs/decisions/032).
  const called = entries.filter((e) => e.status === 'called');
  const waiting = entries.filter((e) => e.status !== 'called');
  const cardOf = (entry: HostEntry) => (
    <QueueEntryCard
      key={entry._id}
      entry={entry}
      now={now}
      compact={isPhone}
      nested={called.length > 0}
      busy={actions.busy.has(entry._id)}
      onAction={(a) => act(a, entry)}
      highlighted={alerts.highlighted.has(entry._id)}
      onEdit={() => setEditing(entry)}
      onThread={() => setThreadOf(entry._id)}
      onResend={(messageId) => act({ kind: 'resend', entryId: entry._id, messageId }, entry)}
      error={cardErrors.get(entry._id)}
    />
  );
  const addButton = (
    <button
      type="button"
      className="button button--primary host-add"
      // On a phone the short word shows; the name stays whole (it starts with what is shown).
      aria-label={isPhone ? t('walkIn.open') : undefined}
      onClick={() => {
        actions.walkIn.reset();
        setAdding(true);
      }}
    >
      {isPhone ? t('walkIn.openShort') : t('walkIn.open')}
    </button>
  );

  return (
    <section aria-labelledby="queue-title" className="host-queue">
      <div className="host-row host-row--spread host-queue__head">
        <h1 id="queue-title">
          {t('queue.title')} <span className="host-count">{t('queue.count', { count: entries.length })}</span>
        </h1>
        <span className="host-row">
          <button
            type="button"
            className="host-chip host-sound"
            aria-pressed={alerts.muted}
            // On a phone the bell alone (the same name for screen readers): the queue needs the room.
            aria-label={isPhone ? t(alerts.muted ? 'alerts.muted' : 'alerts.sound') : undefined}
            onClick={() => alerts.setMuted(!alerts.muted)}
          >
            {isPhone ? <span aria-hidden="true">{alerts.muted ? '🔕' : '🔔'}</span> : t(alerts.muted ? 'alerts.muted' : 'alerts.sound')}
          </button>
          <span className={`host-live host-live--${queue.live}`} role="status">
            {t(`live.${queue.live}`)}
          </span>
          {isPhone && addButton}
        </span>
      </div>
      <ConnectionNote live={queue.live} />
      <audio
        id="host-alert-sound"
        ref={alerts.audio}
        src={chime}
        preload="auto"
        data-alert-count={alerts.alerts}
        data-alerted={alerts.alerted.join(' ')}
      />
      <WaitlistStateBar
        // The choice shows at once (set in the click itself, not a tick later); the stream confirms it.
        state={chosenState ?? waitlist}
        pending={actions.waitlist.isPending}
        onChange={(state) => {
          setChosenState(state);
          actions.waitlist.mutate(state, { onError: (e) => setError(errorText(t, e)), onSettled: () => setChosenState(null) });
        }}
      />
      <BandCounts entries={entries} compact={isPhone} />
      {!isPhone && <div className="host-row">{addButton}</div>}
      <p role="alert" className="host-error">
        {error}
      </p>
      {entries.length === 0 ? (
        <p className="host-empty">{t('queue.empty')}</p>
      ) : (
        <>
          {called.length > 0 && (
            <>
              <h2 className="host-section-title host-section-title--called">{t('queue.calledTitle', { count: called.length })}</h2>
              <ol className="host-entries host-entries--called" aria-label={t('queue.calledLabel')}>
                {called.map(cardOf)}
              </ol>
            </>
          )}
          {called.length > 0 && <h2 className="host-section-title">{t('queue.waitingTitle', { count: waiting.length })}</h2>}
          {waiting.length > 0 && (
            <ol className="host-entries" aria-label={t('queue.listLabel')}>
              {waiting.map(cardOf)}
            </ol>
          )}
        </>
      )}
      <UndoToast
        offer={undo}
        onUndo={(offer) => act({ kind: 'restore', entryId: offer.entryId }, { _id: offer.entryId } as HostEntry)}
        onExpire={clearUndo}
      />
      {adding && (
        <WalkInDialog
          maxPartySize={maxPartySize}
          channel={settings.data?.venue.channel}
          mutation={actions.walkIn}
          onClose={() => setAdding(false)}
        />
      )}
      {threadEntry && <ThreadDialog venueId={venueId} entry={threadEntry} onClose={() => setThreadOf(null)} />}
      {editing && (
        <EditEntryDialog
          entry={editing}
          maxPartySize={maxPartySize}
          onSave={(patch) => act({ kind: 'edit', entryId: editing._id, patch }, editing)}
          onClose={() => setEditing(null)}
        />
      )}
    </section>
  );
}
