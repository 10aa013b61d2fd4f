import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const here = import.meta.dirname;

/**
 * How V8 holds each string a child process prints (`%DebugPrint`, Node's --allow-natives-syntax): a
 * rope (`CONS_…`) or flat. docs/decisions/057-fewer-objects-for-the-collector.md: the strings a
 * stream keeps for its life are flat.
 */
function kindsOf(script: string): string[] {
  const run = spawnSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: here,
    encoding: 'utf8',
  });
  expect(run.stderr).toBe('');
  return [...run.stdout.matchAll(/^ - type: (\w+)$/gm)].map((m) => m[1]!);
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
