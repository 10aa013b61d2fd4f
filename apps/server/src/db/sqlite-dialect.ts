import {
  type DatabaseConnection,
  type Driver,
  type LimitNode,
  type OffsetNode,
  type OperationNode,
  type QueryCompiler,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteQueryCompiler,
  type TransactionSettings,
  ValueNode,
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

/** A row count a query gave as a number (not an argument of a statement compiled once, db/compiled-once.ts). */
const isCount = (node: OperationNode): node is ValueNode & { value: number } =>
  ValueNode.is(node) && typeof node.value === 'number' && Number.isSafeInteger(node.value) && node.value >= 0;

/**
 * Kysely's SQLite compiler, with a LIMIT or OFFSET given as a number written into the statement
 * instead of bound. SQLite lets the value bound to a LIMIT steer its plan, so binding that variable
 * again marks the statement expired and it prepares itself again at its next step; better-sqlite3
 * binds every run, so every run of a `limit ?` paid a prepare: 11.6 µs against 3.1 for the top of
 * a queue of 150, 29.1 against 12.7 for three parties of it
 * (docs/decisions/061-limits-written-in-the-statement.md, bench/lib/front-micro.ts). Each count is then a statement of its
 * own, prepared once (db/statement-cache.ts): the app's counts are a few constants.
 */
class LiteralLimitCompiler extends SqliteQueryCompiler {
  protected override visitLimit(node: LimitNode): void {
    if (isCount(node.limit)) this.append(`limit ${node.limit.value}`);
    else super.visitLimit(node);
  }

  protected override visitOffset(node: OffsetNode): void {
    if (isCount(node.offset)) this.append(`offset ${node.offset.value}`);
    else super.visitOffset(node);
  }
}

/** Kysely's SQLite dialect with the connection handed out in arrival order, and counts written in (`LiteralLimitCompiler`). */
export class FifoSqliteDialect extends SqliteDialect {
  private driver: FifoDriver | undefined;

  constructor(config: SqliteDialectConfig) {
    super(config);
  }

  override createDriver(): Driver {
    this.driver = new FifoDriver(super.createDriver());
    return this.driver;
  }

  override createQueryCompiler(): QueryCompiler {
    return new LiteralLimitCompiler();
  }

  /** Nobody holds the store's one connection (false before Kysely made its driver). */
  connectionIsFree(): boolean {
    return this.driver?.gate.free ?? false;
  }
}
