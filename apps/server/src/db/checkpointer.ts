import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * SQLite's WAL checkpoints, off the event loop (docs/decisions/053-checkpoints-off-the-event-loop.md).
 * By default the connection that commits runs a checkpoint whenever the WAL passes 1,000 pages:
 * it copies the WAL into the database file and syncs it (synchronous=FULL) inside that COMMIT,
 * and better-sqlite3 is synchronous, so every request and stream of the instance waits for it.
 * Here the app's connection never checkpoints (`wal_autocheckpoint = 0`); a worker thread with a
 * connection of its own runs a PASSIVE checkpoint every CHECKPOINT_MS, which waits for no reader
 * or writer. The WAL is restarted from its start by the next commit once a checkpoint has copied
 * all of it. Nothing changes for durability: a commit is durable in the WAL (synchronous=FULL)
 * before it is answered, checkpointed or not.
 */
const CHECKPOINT_MS = 1_000;

// The worker is plain JavaScript, given as text: it runs the same in the server, under tsx and
// inside the test runner, without a loader for TypeScript.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.sqlite);
const db = new SQLite(workerData.file);
db.pragma('synchronous = FULL');
db.pragma('busy_timeout = 0');
const checkpoint = (mode) => {
  try {
    const [result] = db.pragma('wal_checkpoint(' + mode + ')');
    if (result.log > 0) parentPort.postMessage({ result });
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message || error) });
  }
};
const timer = setInterval(() => checkpoint('PASSIVE'), workerData.everyMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  checkpoint('PASSIVE');
  db.close();
  parentPort.close();
});
`;

/** One checkpoint that found frames in the WAL: SQLite's own figures (busy, WAL frames, frames copied). */
export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

export interface Checkpointer {
  /** Calls `listener` after each checkpoint that found frames in the WAL (tests). */
  onCheckpoint(listener: (result: CheckpointResult) => void): void;
  /** Stops checkpointing and closes the worker's connection; resolves when the worker has exited. */
  stop(): Promise<void>;
}

/**
 * Starts checkpointing `file` from a worker thread; the caller's connection must set
 * `wal_autocheckpoint = 0`. A checkpoint that fails (a full disk) is reported, never silent: the WAL
 * would grow until one succeeds. By default as a process warning, which the server's log shows.
 */
export function startCheckpointer(
  file: string,
  onError: (error: Error) => void = (error) => process.emitWarning(error.message, 'SqliteCheckpointWarning'),
): Checkpointer {
  const require = createRequire(import.meta.url);
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { file, sqlite: require.resolve('better-sqlite3'), everyMs: CHECKPOINT_MS },
    // A thread of the instance, not a process: it never keeps the process alive alone.
    stdout: false,
    stderr: false,
  });
  worker.unref();
  const listeners: ((result: CheckpointResult) => void)[] = [];
  worker.on('message', (message: { error?: string; result?: CheckpointResult }) => {
    if (message.error) onError(new Error(`SQLite checkpoint: ${message.error}`));
    if (message.result) for (const listener of listeners) listener(message.result);
  });
  worker.on('error', onError);
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  let stopping: Promise<void> | undefined;
  return {
    onCheckpoint: (listener) => void listeners.push(listener),
    stop() {
      stopping ??= (async () => {
        // Held until it has exited: a process whose last work is closing its store (the admin
        // CLI, a script) would otherwise end with this wait unsettled.
        worker.ref();
        worker.postMessage('stop');
        await exited;
      })();
      return stopping;
    },
  };
}
