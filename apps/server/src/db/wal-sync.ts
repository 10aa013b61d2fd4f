import fs from 'node:fs';
import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * SQLite's commits made durable off the event loop (docs/decisions/059-commits-synced-off-the-event-loop.md).
 *
 * The app's connection runs `synchronous = NORMAL`: a commit writes its frames to the WAL (the
 * kernel's page cache, so a crash of the process loses nothing) and returns without waiting for the
 * disk. `durable()` then waits for an `fdatasync` of the WAL, run on libuv's thread pool while the
 * event loop serves other requests, started after every commit made before the call: what it
 * resolves for survives a crash of the machine too, as a commit under `synchronous = FULL` does.
 * One sync at a time, shared by everyone who waits for it; commits made while it runs wait for the next.
 */
export class WalSync {
  private commits = 0;
  private synced = 0;
  private syncing: Promise<void> | undefined;
  private fd: number | undefined;
  /** A failed sync: the kernel may have dropped the pages it could not write, so no later sync can vouch for them. */
  private failure: Error | undefined;

  constructor(private readonly walFile: string) {}

  /** A statement on the app's connection may have committed (`countingCommits`). */
  committed(): void {
    this.commits++;
  }

  /**
   * Resolves once every commit made before this call is on disk; undefined when nothing is waiting
   * to be synced (no promise for the many answers that wrote nothing since the last sync).
   */
  durable(): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure);
    if (this.synced >= this.commits) return undefined;
    return this.until(this.commits);
  }

  /**
   * After the connection has closed: closing, SQLite checkpointed the whole WAL into the database
   * file, synced it and removed the WAL, so every commit is on disk. Closes the WAL's descriptor.
   */
  close(): void {
    this.synced = this.commits;
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }

  private async until(target: number): Promise<void> {
    while (this.synced < target) {
      this.syncing ??= this.sync().finally(() => {
        this.syncing = undefined;
      });
      await this.syncing;
    }
  }

  private async sync(): Promise<void> {
    // Whatever was committed before the sync starts is covered by it.
    const upTo = this.commits;
    try {
      // Never closed while the store is open: closing any descriptor of a file drops the process's
      // POSIX locks on it (SQLite's locks are on the database and -shm files, not the WAL, but
      // nothing here needs to find out). The WAL exists: a commit has written to it.
      this.fd ??= fs.openSync(this.walFile, 'r+');
      const fd = this.fd;
      await new Promise<void>((resolve, reject) => fs.fdatasync(fd, (error) => (error ? reject(error) : resolve())));
    } catch (error) {
      this.failure = new Error(`SQLite WAL sync failed: ${(error as Error).message}`);
      throw this.failure;
    }
    this.synced = Math.max(this.synced, upTo);
  }
}

/** Transaction ends: SQLite calls them read-only (they modify nothing themselves), yet they commit. */
const ENDS_TRANSACTION = /^\s*(commit|end|release|rollback)\b/i;

/**
 * The connection's statements, each that may commit telling `sync` when it has: a statement that
 * writes, run outside a transaction (its own commit), or one that ends the transaction. Read-only
 * statements are handed out as they are: nothing is added to the reads.
 */
export function countingCommits(handle: SqliteDatabase, sqlite: SQLite.Database, sync: WalSync): SqliteDatabase {
  const counted = new WeakMap<SqliteStatement, SqliteStatement>();
  const after = <T>(result: T): T => {
    if (!sqlite.inTransaction) sync.committed();
    return result;
  };
  return {
    close: () => handle.close(),
    prepare(sql) {
      const statement = handle.prepare(sql);
      let kept = counted.get(statement);
      if (kept) return kept;
      kept =
        (statement as unknown as SQLite.Statement).readonly && !ENDS_TRANSACTION.test(sql)
          ? statement
          : {
              reader: statement.reader,
              all: (parameters) => after(statement.all(parameters)),
              run: (parameters) => after(statement.run(parameters)),
              *iterate(parameters) {
                yield* statement.iterate(parameters);
                after(undefined);
              },
            };
      counted.set(statement, kept);
      return kept;
    },
  };
}
