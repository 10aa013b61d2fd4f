import readline from 'node:readline';
import { Writable } from 'node:stream';
import { ConfigError, loadConfig } from '../config.js';
import { migrateToLatest, openDb } from '../db/connect.js';
import type { StaffNews } from '../plugins/bus.js';
import { type RedisBus, createRedisBus } from '../plugins/bus-redis.js';
import { runAdmin } from './admin-commands.js';
import { restoreStore } from './admin-data.js';

/** Reads one line; on a terminal the typed characters are not echoed. */
function promptSecret(question: string): Promise<string> {
  process.stderr.write(question);
  let muted = false;
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = readline.createInterface({ input: process.stdin, output, terminal: process.stdin.isTTY === true });
  muted = true;
  return new Promise((resolve) => {
    rl.once('line', (line) => {
      resolve(line); // before close(), whose 'close' event would resolve with ''
      rl.close();
      if (process.stdin.isTTY) process.stderr.write('\n');
    });
    rl.once('close', () => resolve(''));
  });
}

async function main(): Promise<void> {
  const config = loadConfig();
  const argv = process.argv.slice(2);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const err = (line: string) => process.stderr.write(`${line}\n`);
  if (argv[0] === 'restore') {
    // It replaces the store's file: it must not open (create, migrate, hold) that store first
    // (docs/decisions/024-backups-and-personal-data.md).
    try {
      await restoreStore(config.database, argv.slice(1), out);
    } catch (error) {
      err(`admin restore: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    }
    return;
  }
  const db = openDb(config.database);
  // Sessions ended here close their consoles on every instance that hears Redis (docs/security.md).
  // Made only when a command has news to tell, so other commands never wait for Redis.
  let bus: RedisBus | undefined;
  const redisUrl = config.REDIS_URL;
  try {
    await migrateToLatest(db);
    const code = await runAdmin(argv, {
      db,
      database: config.database,
      out,
      err,
      prompt: promptSecret,
      ...(redisUrl
        ? {
            tellStaffNews: (news: StaffNews) =>
              (bus ??= createRedisBus(redisUrl, {
                prefix: config.REDIS_PREFIX,
                onError: (e) => err(`redis: ${String(e)}`),
              })).publishStaffNews(news),
          }
        : {}),
    });
    process.exitCode = code;
  } finally {
    // quit() sends what was published before it closes.
    await bus?.close();
    await db.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = error instanceof ConfigError ? 78 : 1;
});
