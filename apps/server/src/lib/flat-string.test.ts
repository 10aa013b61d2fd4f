import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const here = import.meta.dirname;

/**
 * How V8 holds each string a child process prints (`%DebugPrint`, Node's --allow-natives-syntax): a
 * rope (`CONS_…`) or flat. docs/decisions/057-fewer-objects-for-the-collector.md: the strings a
 * stream keeps for its life are flat.
 */
function kindsOf(script: string): string[] {
  // V8 prints to the C library's stdout: a file, not a pipe, so nothing of it waits on the reader.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vez-flat-'));
  const out = path.join(dir, 'out.txt');
  const fd = fs.openSync(out, 'w');
  try {
    const run = spawnSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: here,
      encoding: 'utf8',
      stdio: ['ignore', fd, 'pipe'],
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  } finally {
    fs.closeSync(fd);
  }
  const printed = fs.readFileSync(out, 'utf8');
  fs.rmSync(dir, { recursive: true, force: true });
  return [...printed.matchAll(/^\s*- type: (\w+)$/gm)].map((m) => m[1]!);
}

describe('strings kept for a stream’s life are flat', () => {
  it('flatString turns a rope into one flat string with the same text', () => {
    const kinds = kindsOf(`
      const { flatString } = await import(${JSON.stringify(path.join(here, 'flat-string.ts'))});
      const rope = 'event: position\\n' + 'data: ' + String(Date.now()) + '\\n\\n';
      const flat = flatString(rope);
      if (flat !== rope) throw new Error('text changed');
      %DebugPrint(rope); %DebugPrint(flat);
    `);
    expect(kinds).toEqual(['CONS_ONE_BYTE_STRING_TYPE', 'ONE_BYTE_STRING_TYPE']);
  });

  it("an open stream's response head, and a template's version and frames", () => {
    const kinds = kindsOf(`
      import http from 'node:http';
      const { SseStream } = await import(${JSON.stringify(path.join(here, '../modules/realtime/sse-stream.ts'))});
      const { buildTemplate, frameTemplate } = await import(${JSON.stringify(path.join(here, '../modules/realtime/position-template.ts'))});
      const { entryRow } = await import(${JSON.stringify(path.join(here, '../../test/entry-rows.ts'))});
      const server = http.createServer((req, res) => {
        res.setHeader('x-frame-options', 'DENY');
        res.setHeader('referrer-policy', 'no-referrer');
        new SseStream(res).open();
        %DebugPrint(res._header);
        const view = { hidePosition: false, operationMode: 'basic', gettingCloseAt: 2, gettingCloseMinutes: 10 };
        const placement = { globalPos: 3, pos: 3, estimatedTime: 12, estimatedRange: { low: 8, high: 16 } };
        const template = frameTemplate(buildTemplate(entryRow(), view, false, 'pt', placement));
        %DebugPrint(template.version); %DebugPrint(template.frame[0]); %DebugPrint(template.frame[4]);
        res.destroy();
        server.close();
      });
      server.listen(0, '127.0.0.1', () => http.get({ port: server.address().port, host: '127.0.0.1' }).on('error', () => {}));
    `);
    expect(kinds).toEqual(['ONE_BYTE_STRING_TYPE', 'ONE_BYTE_STRING_TYPE', 'ONE_BYTE_STRING_TYPE', 'ONE_BYTE_STRING_TYPE']);
  });
});
