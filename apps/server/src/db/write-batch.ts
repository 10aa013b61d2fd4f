import { type ControlledTransaction, type Kysely, sql } from 'kysely';
import { compiledOnce } from './compiled-once.js';
import type { Db } from './connect.js';
import { holdsConnection, releasedConnection } from './direct-sqlite.js';
import type { Database } from './types.js';

/** Work done inside a write transaction; use only `trx` in it (SQLite has one connection). */
export type WriteWork<T> = (trx: Kysely<Database>) => Promise<T>;

interface Pending {
  work: WriteWork<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** Bounds how long the first write of a batch waits for the others to be done. */
const MAX_BATCH = 64;
const batchers = new WeakMap<Kysely<Database>, WriteBatcher>();
/** The store each write transaction runs on (`storeOfWrite`). */
const stores = new WeakMap<Kysely<Database>, Kysely<Database>>();

/**
 * The store a write transaction of `runWriteTransaction` runs on, for what is kept per store and
 * may serve a change's own work (the venue's texts: venues/venue-cache.ts); undefined for any
 * other transaction.
 */
export const storeOfWrite = (trx: Kysely<Database>): Kysely<Database> | undefined => stores.get(trx);

/**
 * Runs `work` in a write transaction and resolves once it is durably committed.
 *
 * PostgreSQL: a transaction of its own (the server groups concurrent commits itself).
 * SQLite: one connection, one fsync per commit (synchronous=FULL), so one join per commit caps
 * joins at the disk's fsync rate (a few hundred per second on a busy VM). Writes that arrive
 * together share one transaction instead (group commit), each inside its own savepoint so a
 * failing one rolls back alone; every caller is answered only after the shared COMMIT.
 */
export function runWriteTransaction<T>(db: Db, work: WriteWork<T>, options: WriteOptions = {}): Promise<T> {
  if (db.dialect !== 'sqlite' || db.oneTransactionPerWrite)
    return db.kysely.transaction().execute((trx) => {
      stores.set(trx, db.kysely);
      return work(trx);
    });
  let batcher = batchers.get(db.kysely);
  if (!batcher) {
    batcher = new WriteBatcher(db.kysely);
    batchers.set(db.kysely, batcher);
  }
  return batcher.enqueue(work, options.rideWithinMs ?? 0) as Promise<T>;
}

export interface WriteOptions {
  /**
   * SQLite: work nobody waits on (the message worker's delivery marks) may wait this long for
   * another write's commit to ride instead of paying a commit (an fsync) of its own; it commits
   * alone only when no other write comes meanwhile (docs/decisions/046-fewer-commits-per-change.md).
   * 0 (the default): at once, with whatever else is queued.
   */
  rideWithinMs?: number;
}

class WriteBatcher {
  private readonly queue: Pending[] = [];
  /** Writes waiting to ride the next batch (WriteOptions.rideWithinMs), oldest first. */
  private readonly riders: Pending[] = [];
  private rideTimer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(private readonly kysely: Kysely<Database>) {}

  enqueue(work: WriteWork<unknown>, rideWithinMs: number): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (rideWithinMs > 0) {
        this.riders.push({ work, resolve, reject });
        // No other write came to ride: a commit of their own, once the first has waited enough.
        this.rideTimer ??= setTimeout(() => {
          this.rideTimer = undefined;
          if (!this.running) void this.drain();
        }, rideWithinMs);
        return;
      }
      this.queue.push({ work, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  /** The riders join the queue ahead of what came after them: the batch about to run takes them along. */
  private boardRiders(): void {
    if (this.riders.length === 0) return;
    this.queue.unshift(...this.riders.splice(0));
    clearTimeout(this.rideTimer);
    this.rideTimer = undefined;
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0 || (this.riders.length > 0 && this.rideTimer === undefined)) {
        // A batch runs as one chain of promise callbacks, and its COMMIT blocks the thread
        // (better-sqlite3 is synchronous): requests still reading their bodies would never get a
        // turn to join it. One turn of the event loop first lets them reach the queue.
        await new Promise<void>((resolve) => setImmediate(resolve));
        this.boardRiders();
        await this.runBatch();
      }
    } finally {
      this.running = false;
    }
  }

  private async runBatch(): Promise<void> {
    const batch: Pending[] = [];
    const outcomes: Outcome[] = [];
    let trx: ControlledTransaction<Database> | undefined;
    try {
      trx = await this.kysely.startTransaction().execute();
      stores.set(trx, this.kysely);
      holdsConnection(trx, this.kysely);
      // Writes queued while this batch runs join it, up to MAX_BATCH.
      while (batch.length < MAX_BATCH && this.queue.length > 0) {
        const item = this.queue.shift() as Pending;
        batch.push(item);
        outcomes.push(await runInSavepoint(trx, item.work));
      }
      releasedConnection(trx);
      await trx.commit().execute();
    } catch (error) {
      if (trx) releasedConnection(trx);
      // BEGIN, a savepoint command or COMMIT failed: nothing of this batch is durable.
      await trx
        ?.rollback()
        .execute()
        .catch(() => undefined);
      if (batch.length === 0) batch.push(...this.queue.splice(0, MAX_BATCH));
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i] as Outcome;
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.error);
    });
  }
}

// Compiled once (db/compiled-once.ts): two of them around every join (docs/decisions/042-cheaper-joins.md).
const savepoint = compiledOnce<object>((db) => sql`savepoint "write"`.compile(db));
const releaseSavepoint = compiledOnce<object>((db) => sql`release savepoint "write"`.compile(db));
const rollbackToSavepoint = compiledOnce<object>((db) => sql`rollback to savepoint "write"`.compile(db));

async function runInSavepoint(trx: ControlledTransaction<Database>, work: WriteWork<unknown>): Promise<Outcome> {
  // The work runs on the batch's own transaction (one connection): no transaction object per savepoint.
  await savepoint(trx, {});
  try {
    const value = await work(trx);
    await releaseSavepoint(trx, {});
    return { ok: true, value };
  } catch (error) {
    await rollbackToSavepoint(trx, {});
    await releaseSavepoint(trx, {});
    return { ok: false, error };
  }
}
