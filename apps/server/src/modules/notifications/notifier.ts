import { smsSegments } from '@vez/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Db } from '../../db/connect.js';
import { runWriteTransaction } from '../../db/write-batch.js';
import type { Database, MessageRow } from '../../db/types.js';
import type { ErrorReporter } from '../../plugins/reporter.js';
import { newOrderedId as newMessageId } from '../../lib/ids.js';
import {
  claimDueMessages,
  countQueued,
  deleteFinishedBefore,
  insertMessage,
  markDueSentByOutbox,
  markFailed,
  markRetry,
  markSent,
  takeFallbackBody,
} from './messages.repository.js';
import { isOptedOut } from './sms-opt-outs.repository.js';
import { ProviderError, type Providers, isOutbox, redactContact } from './providers.js';
import type { TemplateSend } from './whatsapp.js';

/** A worker owns a claimed message this long; providers time out well before it ends. */
export const LEASE_MS = 60_000;
const BATCH = 10;
const PURGE_EVERY_MS = 10 * 60_000;
/**
 * How long the outbox's delivery marks may wait for another write's commit to ride (SQLite,
 * db/write-batch.ts): a change's message is marked with the next change's commit instead of one of
 * its own. A card's "sent" shows at most this much later (docs/decisions/046-fewer-commits-per-change.md).
 */
const OUTBOX_RIDE_MS = 100;

export interface OutgoingMessage {
  channel: 'sms' | 'email' | 'push';
  to: string;
  subject?: string;
  body: string;
  /** One message per cause, for example `join:<entryId>`: enqueueing it twice sends it once. */
  idempotencyKey: string;
  /**
   * For a body that carries a one-time code or a login link: the same text with the secret masked.
   * It replaces the stored body once the message is delivered or finally failed (docs/product.md §3).
   */
  safeBody?: string;
  /** The entry this message is about: its card shows the delivery (docs/product.md §7). */
  entryId?: string;
  /** A WhatsApp message the venue starts: the approved template it goes as, never `body` (docs/product.md §10). */
  template?: TemplateSend;
  /** A WhatsApp message: the text that goes once by SMS if WhatsApp refuses it or reports it failed. */
  fallbackBody?: string;
  /** On a fallback SMS: the WhatsApp message it replaces. */
  fallbackOf?: string;
}

export interface Notifier {
  /**
   * Queues a message inside the caller's transaction: it exists if and only if the change commits.
   * Answers its id; undefined when nothing was queued (the same idempotency key again, or an SMS to
   * a phone that answered STOP: docs/product.md §7).
   */
  enqueue(trx: Kysely<Database>, message: OutgoingMessage): Promise<string | undefined>;
  /** Runs the worker now if something was queued since the last run (after a response, when the transaction committed). */
  kickIfQueued(): void;
  /** Sends every message due now and resolves when done (tests, operators). */
  drain(): Promise<void>;
  /** Resolves once no round of the worker runs (tests wait for it, not for time); sends nothing itself. */
  idle(): Promise<void>;
  /**
   * A WhatsApp message that will not arrive (a refusal, or a failed or undelivered report): queues
   * its SMS fallback, once (docs/product.md §10). Answers the SMS's id, or undefined when there is
   * none (not WhatsApp, no fallback text, already fallen back, or a phone that answered STOP).
   */
  fallBack(message: Pick<MessageRow, 'id' | 'recipient' | 'entry_id'>, reason: string): Promise<string | undefined>;
  /** Messages pending or being sent, by channel and status, in the shared store (the metrics' queue depth). */
  depth(): Promise<{ channel: string; status: string; n: number }[]>;
  start(): void;
  stop(): Promise<void>;
  readonly providers: Providers;
}

export interface NotifierDeps {
  db: Db;
  providers: Providers;
  now: () => number;
  log: FastifyBaseLogger;
  reporter: ErrorReporter;
  enabled: boolean;
  intervalMs: number;
  maxAttempts: number;
  retentionMs: number;
  /** What became of a message about an entry: sent or finally failed (the entry's card shows it). */
  onDelivery?: (messageIds: string[], status: 'sent' | 'failed') => Promise<void>;
  /**
   * The same for the outbox's deliveries, inside the write transaction that marks them sent: answers
   * what to tell once it has committed. Without it, `onDelivery` after the commit.
   */
  onDeliveryIn?: (trx: Kysely<Database>, messageIds: string[], status: 'sent') => Promise<() => void>;
  /**
   * Bench only (docs/decisions/018-optimisations-that-pay.md): false runs the worker's round the
   * simpler way, the outbox's writes in commits of their own and a claim on every round.
   */
  inWriteBatch?: false;
  /**
   * Bench only (docs/decisions/018-optimisations-that-pay.md): the simpler way, the outbox claimed on
   * every round of the worker whether or not something waits there.
   */
  outboxClaimedEachRound?: true;
  /** A WhatsApp message about an entry went again by SMS: the card and the thread follow the SMS. */
  onFallback?: (whatsappId: string, smsId: string) => Promise<void>;
  /** Every attempt's outcome by channel, for the metrics (plugins/metrics.ts). */
  onOutcome?: (channel: MessageRow['channel'], outcome: 'sent' | 'retry' | 'failed', count: number) => void;
}

/** 5 s, 10 s, 20 s … capped at 15 minutes, plus up to a second of jitter so instances do not retry in step. */
export function backoffMs(attempt: number): number {
  return Math.min(15 * 60_000, 5_000 * 2 ** Math.max(0, attempt - 1)) + Math.floor(Math.random() * 1000);
}

export function createNotifier(deps: NotifierDeps): Notifier {
  const { db, providers, now, log } = deps;
  let running: Promise<void> | undefined;
  let again = false;
  let queued = false;
  // Something may be due on a channel a provider sends (not the outbox): queued since the last
  // look, or the timer's round (retries, leases run out, a previous run's leftovers).
  let sentDue = true;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let lastPurge = 0;
  // drain() wants everything marked now: no waiting for a commit to ride.
  let urgent = false;
  // The outbox (the demo's provider, the benchmarks') is claimed like the providers' channels: when
  // something may wait there (a message queued, its look finding it still unclaimed, the timer's
  // round, drain()), not on every round: the round after each request found nothing, and on
  // PostgreSQL each empty claim was a transaction of its own
  // (docs/decisions/065-outbox-claimed-when-something-waits.md).
  let outboxDue = true;
  /** Outbox messages this instance queued that no claim has returned yet. */
  const unclaimed = new Set<string>();
  /** Looks that came while a round ran: decided when it ends, once its claim had its chance. */
  const looksAfterRound = new Set<string>();

  async function deliver(row: MessageRow): Promise<void> {
    const provider = providers[row.channel];
    try {
      const { providerId } = await provider.send(row);
      await markSent(db.kysely, row, provider.name, providerId, now());
      deps.onOutcome?.(row.channel, 'sent', 1);
      if (row.entry_id) await deps.onDelivery?.([row.id], 'sent');
    } catch (error) {
      const failure =
        error instanceof ProviderError ? error : new ProviderError(redactContact(String((error as Error)?.message ?? error)), false);
      const final = failure.permanent || row.attempts >= deps.maxAttempts;
      // Never the phone, the address or the text: only what identifies the row and the cause.
      log.warn(
        { messageId: row.id, channel: row.channel, provider: provider.name, attempt: row.attempts, final, reason: failure.message },
        'message delivery failed',
      );
      deps.onOutcome?.(row.channel, final ? 'failed' : 'retry', 1);
      if (!final) return markRetry(db.kysely, row, failure.message, now() + backoffMs(row.attempts));
      await markFailed(db.kysely, row, provider.name, failure.message);
      // WhatsApp refused it (63016, 63003, 63024, 21408 …): it goes once by SMS instead (docs/product.md §10).
      if (failure.permanent && (await fallBack(row, failure.message))) return;
      if (row.entry_id) await deps.onDelivery?.([row.id], 'failed');
      deps.reporter.report(new Error(`message delivery failed: ${failure.message}`), {
        messageId: row.id,
        channel: row.channel,
        provider: provider.name,
      });
    }
  }

  async function fallBack(message: Pick<MessageRow, 'id' | 'recipient' | 'entry_id'>, reason: string): Promise<string | undefined> {
    if (!message.recipient.startsWith('whatsapp:')) return undefined;
    const text = await takeFallbackBody(db.kysely, message.id, reason);
    if (text === undefined) return undefined;
    const id = await enqueue(db.kysely, {
      channel: 'sms',
      to: message.recipient.slice('whatsapp:'.length),
      body: text,
      idempotencyKey: `fallback:${message.id}`,
      ...(message.entry_id ? { entryId: message.entry_id } : {}),
      fallbackOf: message.id,
    });
    log.info({ messageId: message.id, fallbackId: id, reason }, 'whatsapp message falls back to sms');
    if (id && message.entry_id) await deps.onFallback?.(message.id, id);
    return id;
  }

  async function enqueue(trx: Kysely<Database>, message: OutgoingMessage): Promise<string | undefined> {
    // A phone that answered STOP gets nothing more (docs/product.md §7), whichever provider sends.
    if (message.channel === 'sms' && (await isOptedOut(trx, message.to))) return undefined;
    const created = now();
    const id = newMessageId(created);
    const safeBody = message.safeBody ?? null;
    const inserted = await insertMessage(trx, {
      id,
      channel: message.channel,
      recipient: message.to,
      subject: message.subject ?? null,
      body: message.body,
      safe_body: safeBody,
      idempotency_key: message.idempotencyKey.slice(0, 120),
      created_at: created,
      entry_id: message.entryId ?? null,
      // What this SMS costs as it goes (the stored body may be masked later): the Today screen's figure.
      segments: message.channel === 'sms' && !message.to.startsWith('whatsapp:') ? smsSegments(message.body).segments : null,
      content_sid: message.template?.contentSid ?? null,
      content_variables: message.template?.contentVariables ?? null,
      fallback_body: message.fallbackBody ?? null,
      fallback_of: message.fallbackOf ?? null,
    });
    if (!inserted) return undefined;
    const provider = providers[message.channel];
    const toOutbox = isOutbox(provider);
    if (toOutbox) {
      unclaimed.add(id);
      outboxDue = true;
      // The demo outbox shows what it delivered, though the stored row is masked (providers.ts).
      if (safeBody !== null) provider.keep(id, message.body);
    } else sentDue = true;
    queued = true;
    // Outside a request (a job, a script) nothing calls kickIfQueued: look again shortly. An outbox
    // message a claim has returned needs no look; one that a claim missed (it ran before this
    // transaction committed) gets one more.
    setTimeout(() => {
      if (!toOutbox) return void kick();
      if (!unclaimed.has(id)) return;
      if (running) {
        looksAfterRound.add(id);
        again = true;
        return;
      }
      look(id);
      void kick();
    }, 100).unref();
    return id;
  }

  /** A message's look: the outbox is claimed once more for it, whatever that claim finds. */
  function look(id: string): void {
    if (unclaimed.delete(id)) outboxDue = true;
  }

  async function purge(): Promise<void> {
    if (now() - lastPurge < PURGE_EVERY_MS) return;
    lastPurge = now();
    await deleteFinishedBefore(db.kysely, now() - deps.retentionMs);
  }

  const channels = ['sms', 'email', 'push'] as const;
  const outboxChannels = channels.filter((c) => isOutbox(providers[c]));
  const sentChannels = channels.filter((c) => !isOutbox(providers[c]));

  /** Claims and sends batches until nothing is due. */
  async function work(): Promise<void> {
    if (outboxChannels.length > 0 && (outboxDue || deps.inWriteBatch === false || deps.outboxClaimedEachRound)) {
      outboxDue = false;
      // One statement for all of them: the outbox sends many at once (the demo, the benchmarks).
      // It rides the write batch (db/write-batch.ts) with the entries' delivery state: on SQLite
      // the joins' own COMMIT, not three commits (three fsyncs) of its own between their batches.
      const onDeliveryIn = deps.onDeliveryIn;
      const write =
        deps.inWriteBatch === false
          ? <T>(work: (trx: Kysely<Database>) => Promise<T>) => work(db.kysely)
          : <T>(work: (trx: Kysely<Database>) => Promise<T>) =>
              runWriteTransaction(db, work, { rideWithinMs: urgent ? 0 : OUTBOX_RIDE_MS });
      const { delivered, tell } = await write(async (trx) => {
        const rows = await markDueSentByOutbox(trx, outboxChannels, now());
        const aboutEntries = rows.filter((row) => row.entry_id).map((row) => row.id);
        const told = aboutEntries.length > 0 && onDeliveryIn ? await onDeliveryIn(trx, aboutEntries, 'sent') : undefined;
        return { delivered: rows, tell: told };
      });
      for (const row of delivered) {
        unclaimed.delete(row.id);
        deps.onOutcome?.(row.channel, 'sent', 1);
      }
      if (tell) tell();
      else {
        const aboutEntries = delivered.filter((row) => row.entry_id).map((row) => row.id);
        if (aboutEntries.length > 0) await deps.onDelivery?.(aboutEntries, 'sent');
      }
    }
    // Nothing queued for them since the last look: no claim (a write statement) per round.
    if (!sentDue && deps.inWriteBatch !== false) {
      await purge();
      return;
    }
    sentDue = false;
    while (sentChannels.length > 0) {
      const batch = await claimDueMessages(db.kysely, db.dialect, now(), LEASE_MS, BATCH, sentChannels);
      await Promise.all(batch.map(deliver));
      if (batch.length < BATCH || stopped) break;
    }
    await purge();
  }

  function kick(): Promise<void> {
    if (!deps.enabled || stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        // A message queued meanwhile (a WhatsApp refusal's SMS, queued by this very round) goes in
        // the next round, not 100 ms later: drain() answers once nothing is left to send.
        do {
          again = false;
          queued = false;
          for (const id of looksAfterRound) look(id);
          looksAfterRound.clear();
          await work();
        } while ((again || queued) && !stopped);
      } catch (error) {
        deps.reporter.report(error, { job: 'messages' });
      } finally {
        running = undefined;
      }
    })();
    return running;
  }

  return {
    providers,
    enqueue,
    fallBack,
    kickIfQueued() {
      if (queued) void kick();
    },
    async drain() {
      sentDue = true;
      outboxDue = true;
      urgent = true;
      try {
        if (running) await running;
        await kick();
      } finally {
        urgent = false;
      }
    },
    depth: () => countQueued(db.kysely),
    idle: async () => {
      while (running) await running;
    },
    start() {
      if (!deps.enabled || timer) return;
      timer = setInterval(() => {
        sentDue = true;
        outboxDue = true;
        void kick();
      }, deps.intervalMs);
      timer.unref();
      // Messages left by a previous run (a crash between commit and send) go out now.
      void kick();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      if (running) await running;
      await Promise.all(Object.values(providers).map((p) => p.close?.()));
    },
  };
}
