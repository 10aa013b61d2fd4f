import {
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  SqliteDialect,
  type SqliteDialectConfig,
  type TransactionSettings,
} from 'kysely';

/**
 * Hands SQLite's one connection to waiters in arrival order, one at a time. Kysely's own SQLite
 * lock wakes every waiter on each release and all but one go back to sleep: with 50 requests
 * waiting that is 50 wake-ups per query, and a one-query route fell to a quarter of a bare route's
 * throughput. In front of it, this queue leaves Kysely's lock always free when asked.
 */
class FifoLock {
  private readonly waiters: (() => void)[] = [];
  private held = false;

  /** Nobody holds the connection (and so nobody waits for it). */
  get free(): boolean {
    return !this.held;
  }

  lock(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  unlock(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.held = false;
  }
}

class FifoDriver implements Driver {
  readonly gate = new FifoLock();

  constructor(private readonly inner: Driver) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.gate.lock();
    try {
      return await this.inner.acquireConnection();
    } catch (error) {
      this.gate.unlock();
      throw error;
    }
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    try {
      await this.inner.releaseConnection(connection);
    } finally {
      this.gate.unlock();
    }
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.savepoint?.(connection, name, compile);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.rollbackToSavepoint?.(connection, name, compile);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.releaseSavepoint?.(connection, name, compile);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** Kysely's SQLite dialect with the connection handed out in arrival order. */
export class FifoSqliteDialect extends SqliteDialect {
  private driver: FifoDriver | undefined;

  constructor(config: SqliteDialectConfig) {
    super(config);
  }

  override createDriver(): Driver {
    this.driver = new FifoDriver(super.createDriver());
    return this.driver;
  }

  /** Nobody holds the store's one connection (false before Kysely made its driver). */
  connectionIsFree(): boolean {
    return this.driver?.gate.free ?? false;
  }
}
