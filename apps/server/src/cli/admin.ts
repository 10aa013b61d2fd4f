import readline from 'node:readline';
import { Writable } from 'node:stream';
import { ConfigError, loadConfig } from '../config.js';
import { migrateToLatest, openDb } from '../db/connect.js';
import { runAdmin } from './admin-commands.js';

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
  const db = openDb(config.database);
  try {
    await migrateToLatest(db);
    const code = await runAdmin(process.argv.slice(2), {
      db,
      out: (line) => process.stdout.write(`${line}\n`),
      err: (line) => process.stderr.write(`${line}\n`),
      prompt: promptSecret,
    });
    process.exitCode = code;
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = error instanceof ConfigError ? 78 : 1;
});
