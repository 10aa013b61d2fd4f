import type { Language, PositionEntry, PositionResponse, ReplyBody } from '@vez/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { apiRequest, isApiError } from '../../../lib/api-client';
import { positionKey } from '../lib/position-key';
import type { TextFn } from '../hooks/use-venue-text';

interface ConversationPanelProps {
  waitlistId: string;
  entry: PositionEntry;
  lng: Language;
  text: TextFn;
}

const MINUTES = [5, 10, 15] as const;

/**
 * The party's side of the conversation (docs/product.md §7): the venue's messages, newest first, in
 * a live region; the latest answer; and the answers that fit the state (waiting: more time, I'm
 * here; called: on my way, more time). A shared link shows the messages and the answer only.
 * Plain state and the page's API client, no mutation machinery: the page's JS budget is 120 KB.
 */
export function ConversationPanel({ waitlistId, entry, lng, text }: ConversationPanelProps) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // The texts after an answer come in their own small chunk, once there is an answer to show.
  const [texts, setTexts] = useState(false);
  const loadTexts = () => import('../lib/conversation-texts').then(() => setTexts(true));
  useEffect(() => {
    if (entry.reply && !texts) void loadTexts();
  }, [entry.reply, texts]);
  const time = (at: string) => new Date(at).toLocaleTimeString(lng === 'en' ? 'en-US' : 'pt-BR', { hour: '2-digit', minute: '2-digit' });

  const answer = async (body: ReplyBody) => {
    setPending(true);
    setFailure(null);
    try {
      const position = await apiRequest<PositionResponse>(
        `/waitlists/${encodeURIComponent(waitlistId)}/${encodeURIComponent(entry.venue)}/reply?lng=${lng}`,
        { method: 'POST', body },
      );
      queryClient.setQueryData(positionKey(waitlistId, lng), position);
    } catch (error) {
      await loadTexts();
      setFailure(isApiError(error) && error.status === 409 ? 'conversation.gone' : 'conversation.failed');
    } finally {
      setPending(false);
    }
  };

  const reply = entry.reply;
  return (
    <section className="conversation" aria-labelledby="conversation-title">
      <h2 id="conversation-title" className="conversation__title">
        {text('conversation.title')}
      </h2>
      <div
        className="conversation__messages"
        role="log"
        aria-live="polite"
        aria-label={text('conversation.messages')}
        data-testid="venue-messages"
      >
        {entry.messages.length > 0 && (
          <ul>
            {entry.messages.map((m) => (
              <li key={m.at + m.text}>
                <time dateTime={m.at}>{time(m.at)}</time> {m.text}
              </li>
            ))}
          </ul>
        )}
      </div>
      {reply && texts && (
        <p className="conversation__known" role="status" data-testid="reply-known">
          {text(`conversation.known_${reply.kind}`, { count: reply.minutes ?? 0 })}
        </p>
      )}
      {!entry.isShared && (
        <div className="conversation__actions">
          {entry.status === 'called' && (
            <button type="button" className="button button--primary" disabled={pending} onClick={() => void answer({ reply: 'onMyWay' })}>
              {text('conversation.onMyWay')}
            </button>
          )}
          <button type="button" className="button button--primary" disabled={pending} onClick={() => void answer({ reply: 'arrived' })}>
            {text('conversation.arrived')}
          </button>
          <div className="conversation__minutes" role="group" aria-labelledby="conversation-more">
            <span id="conversation-more">{text('conversation.moreTime')}</span>
            {MINUTES.map((minutes) => (
              <button
                key={minutes}
                type="button"
                className="button button--secondary"
                disabled={pending}
                onClick={() => void answer({ reply: 'needMoreTime', minutes })}
              >
                {text('conversation.minutes', { count: minutes })}
              </button>
            ))}
          </div>
        </div>
      )}
      {!entry.isShared && <NotifyThisPhone waitlistId={waitlistId} venueId={entry.venue} text={text} />}
      {failure && (
        <p className="conversation__failure" role="alert">
          {text(failure)}
        </p>
      )}
    </section>
  );
}

/**
 * "Notify me on this phone" (docs/product.md §8), where the browser can: the permission, the service
 * worker and the subscription load on the tap (lib/push-subscribe.ts), never before.
 */
function NotifyThisPhone({ waitlistId, venueId, text }: { waitlistId: string; venueId: string; text: TextFn }) {
  const key = `vez.push.${waitlistId}`;
  const [state, setState] = useState(localStorage.getItem(key) ? 'on' : 'off');
  // The texts after the offer come with the subscribing code: a phone that said yes before loads it.
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    if (state === 'on' && !loaded) void import('../lib/push-subscribe').then(() => setLoaded(true));
  }, [state, loaded]);
  if (!('PushManager' in window) || !navigator.serviceWorker) return null;
  if (state !== 'off' && state !== 'pending') return loaded ? <p role="status">{text(`push.${state}`)}</p> : null;
  return (
    <button
      type="button"
      className="button button--secondary"
      disabled={state === 'pending'}
      onClick={() => {
        setState('pending');
        import('../lib/push-subscribe')
          .then((m) => {
            setLoaded(true);
            return m.subscribeThisPhone(waitlistId, venueId);
          })
          .then((result) => {
            if (result === 'on') localStorage.setItem(key, '1');
            setState(result);
          })
          .catch(() => setState('failed'));
      }}
    >
      {text('push.offer')}
    </button>
  );
}
