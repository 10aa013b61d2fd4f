import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS, missingServerFlags } from './v8-flags.js';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const read = (file: string) => fs.readFileSync(path.join(repoRoot, file), 'utf8');

/** docs/decisions/056-no-memory-reducer.md: the server's Node flags are on every documented start. */
describe("the server's Node flags", () => {
  it('are flags this Node accepts', () => {
    const run = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, '-e', 'process.exit(0)'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('are on every script that starts the server, and in the systemd unit of docs/deploy.md', () => {
    const starts = [
      ...Object.values((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts),
      ...Object.values((JSON.parse(read('apps/server/package.json')) as { scripts: Record<string, string> }).scripts),
      ...read('docs/deploy.md')
        .split('\n')
        .filter((line) => line.startsWith('ExecStart=')),
    ].filter((command) => /\bsrc\/main\.ts\b/.test(command));
    expect(starts.length).toBeGreaterThanOrEqual(4);
    for (const command of starts) {
      const argv = command.slice(0, command.indexOf('main.ts')).split(/\s+/);
      expect(missingServerFlags(argv), command).toEqual([]);
    }
  });

  it('a process started without them is told which', () => {
    expect(missingServerFlags(['--import', 'tsx'])).toEqual(['--no-memory-reducer', '--max-semi-space-size=64', '--v8-pool-size=1']);
    expect(missingServerFlags(['--no-memory-reducer', '--v8-pool-size=1', '--import', 'tsx'])).toEqual(['--max-semi-space-size=64']);
    expect(missingServerFlags(['--v8-pool-size=1', '--max-semi-space-size=64', '--no-memory-reducer', '--import', 'tsx'])).toEqual([]);
  });
});
