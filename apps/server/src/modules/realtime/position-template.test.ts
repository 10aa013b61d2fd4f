import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { EntryRow } from '../../db/types.js';
import { entryRow } from '../../../test/entry-rows.js';
import { type Placement, toPositionEntry } from '../queue/index.js';
import { writeFromTemplate } from './fanout.js';
import { buildTemplate, fillFrame, frameTemplate, render, renderFull, versionOf } from './position-template.js';
import { SseStream } from './sse-stream.js';

const row: EntryRow = entryRow();
const view = { hidePosition: false, operationMode: 'basic' as const, gettingCloseAt: 3, gettingCloseMinutes: 15 };
const full = (r: EntryRow, p: Placement, isShared = false, lang: 'pt' | 'en' = 'pt') =>
  JSON.stringify({
    waitlist: toPositionEntry(r, p, { ...view, isShared, lang }),
    waitlistSettings: { hiddenCustomerPosition: false, operationMode: 'basic', gettingCloseAt: 3, gettingCloseMinutes: 15 },
  });

const placements: [Placement][] = [
  [{ globalPos: 5, pos: 5, estimatedTime: null, estimatedRange: null }],
  [{ globalPos: 1, pos: 1, estimatedTime: 12, estimatedRange: { low: 9, high: 17 } }],
  [{ globalPos: 0, pos: 0, estimatedTime: null, estimatedRange: null }],
  [{ globalPos: 12_345, pos: 3, estimatedTime: 999, estimatedRange: { low: 0, high: 12_000 } }],
];

/** A stream whose head is out and whose body is chunked: what it writes to the socket. */
function chunkedStream(): { stream: SseStream; written: Buffer[] } {
  const written: Buffer[] = [];
  const socket = {
    writableLength: 0,
    write: (chunk: string | Uint8Array) => written.push(Buffer.from(chunk)) > 0,
  };
  const raw = {
    socket,
    headersSent: true,
    chunkedEncoding: true,
    writableLength: 0,
    write: () => {
      throw new Error('once the head is out, messages go to the socket as whole chunks');
    },
  };
  return { stream: new SseStream(raw as unknown as ServerResponse), written };
}

describe('position templates', () => {
  it.each(placements)('renders exactly what a full serialisation gives for %j', (placement) => {
    for (const [isShared, lang] of [
      [false, 'pt'],
      [true, 'en'],
    ] as const) {
      const template = buildTemplate(row, view, isShared, lang, {
        globalPos: 9,
        pos: 9,
        estimatedTime: 4,
        estimatedRange: { low: 1, high: 9 },
      });
      expect(template.parts).toBeDefined();
      expect(render(template, placement)).toBe(full(row, placement, isShared, lang));
    }
  });

  it('falls back to full serialisation when a hole cannot be found once', () => {
    const odd = { ...row, name: 'Ana -917000001 Souza' };
    const template = buildTemplate(odd, view, false, 'pt', { globalPos: 2, pos: 2, estimatedTime: null, estimatedRange: null });
    expect(template.parts).toBeUndefined();
    expect(render(template, { globalPos: 3, pos: 3, estimatedTime: null, estimatedRange: null })).toBeUndefined();
    expect(renderFull(odd, { globalPos: 3, pos: 3, estimatedTime: null, estimatedRange: null }, view, false, 'pt')).toBe(
      full(odd, { globalPos: 3, pos: 3, estimatedTime: null, estimatedRange: null }),
    );
  });

  it('changes version with anything the message shows besides the placement', () => {
    const base = versionOf(row, view);
    expect(versionOf({ ...row, status: 'called' }, view)).not.toBe(base);
    expect(versionOf({ ...row, priority: 1 }, view)).not.toBe(base);
    expect(versionOf({ ...row, party_size: 4 }, view)).not.toBe(base);
    expect(versionOf(row, { ...view, hidePosition: true })).not.toBe(base);
    const renamed: EntryRow = { ...row, phone: '+5511000000000', name: 'Outro Nome' };
    expect(versionOf(renamed, view)).toBe(base);
  });

  it.each(placements)('writes %j as one whole HTTP chunk holding exactly the string message, accents included', (placement) => {
    const accented: EntryRow = { ...row, name: 'Joã "Ç" Ñúñez 🍷' };
    for (const [isShared, lang] of [
      [false, 'pt'],
      [true, 'en'],
    ] as const) {
      const template = frameTemplate(
        buildTemplate(accented, view, isShared, lang, { globalPos: 9, pos: 9, estimatedTime: 4, estimatedRange: { low: 1, high: 9 } }),
      );
      const message = Buffer.from(fillFrame(template.frame!, placement));
      const { stream, written } = chunkedStream();
      // Written by the stream, then as the fan-out writes (fanout.ts).
      stream.sendFrame(fillFrame(template.frame!, placement));
      for (let i = 0; i < 2; i++) writeFromTemplate({ stream, isShared, lang }, template, placement);
      expect(written).toHaveLength(3);
      for (const chunk of written) {
        expect(chunk.toString()).toBe(`${message.length.toString(16)}\r\n${message.toString()}\r\n`);
        expect(message.toString()).toBe(`event: position\ndata: ${full(accented, placement, isShared, lang)}\n\n`);
      }
    }
  });

  it('fills a figure that is not a plain count as JSON writes it; a template without holes has no frame', () => {
    const template = frameTemplate(
      buildTemplate(row, view, false, 'pt', { globalPos: 2, pos: 2, estimatedTime: null, estimatedRange: null }),
    );
    const odd = { globalPos: 2, pos: 2, estimatedTime: 1.5, estimatedRange: { low: 1, high: 9 } };
    expect(fillFrame(template.frame!, odd)).toBe(`event: position\ndata: ${full(row, odd)}\n\n`);
    const holeless = frameTemplate(
      buildTemplate({ ...row, name: 'Ana -917000001 Souza' }, view, false, 'pt', {
        globalPos: 2,
        pos: 2,
        estimatedTime: null,
        estimatedRange: null,
      }),
    );
    expect(holeless.frame).toBeUndefined();
  });

  it('a venue that hides positions gets one message for every placement, with no figures (docs/product.md §4)', () => {
    const hidden = { ...view, hidePosition: true };
    const template = frameTemplate(
      buildTemplate(row, hidden, false, 'pt', { globalPos: 9, pos: 9, estimatedTime: 4, estimatedRange: { low: 1, high: 9 } }),
    );
    expect(template.fixed).toBeDefined();
    for (const placement of placements.map(([p]) => p)) {
      expect(render(template, placement)).toBe(renderFull(row, placement, hidden, false, 'pt'));
      expect(render(template, placement)).not.toMatch(/globalPos|"pos"|estimatedTime/);
    }
    const message = `event: position\ndata: ${template.fixed}\n\n`;
    expect(template.fixedFrame).toBe(message);
    const { stream, written } = chunkedStream();
    stream.sendFrame(template.fixedFrame!);
    writeFromTemplate({ stream, isShared: false, lang: 'pt' }, template, placements[0]![0]);
    expect(written.map(String)).toEqual(Array(2).fill(`${Buffer.byteLength(message).toString(16)}\r\n${message}\r\n`));
  });

  it('writes every view and language of a template as one whole chunk of the bytes a full serialisation gives, whatever the name and figures', () => {
    const odd: Placement[] = [
      ...placements.map(([p]) => p),
      { globalPos: 1_000_000, pos: 999_999, estimatedTime: 1.5, estimatedRange: { low: 0.25, high: 1e21 } },
      { globalPos: 7, pos: 2, estimatedTime: 0, estimatedRange: { low: 0, high: 0 } },
    ];
    for (const name of ['Ana Souza', 'Joã "Ç" Ñúñez 🍷', '李小龙', 'Zoë\\n\u2028 ü']) {
      for (const [isShared, lang] of [
        [false, 'pt'],
        [true, 'pt'],
        [false, 'en'],
        [true, 'en'],
      ] as const) {
        const named: EntryRow = { ...row, name };
        const template = frameTemplate(
          buildTemplate(named, view, isShared, lang, { globalPos: 9, pos: 9, estimatedTime: 4, estimatedRange: { low: 1, high: 9 } }),
        );
        expect(template.frame).toBeDefined();
        for (const placement of odd) {
          const message = Buffer.from(`event: position\ndata: ${full(named, placement, isShared, lang)}\n\n`);
          const { stream, written } = chunkedStream();
          writeFromTemplate({ stream, isShared, lang }, template, placement);
          expect(written).toEqual([Buffer.concat([Buffer.from(`${message.length.toString(16)}\r\n`), message, Buffer.from('\r\n')])]);
        }
      }
    }
  });

  it('frames every kind of template with the same fields in the same order: one hidden class for all (docs/decisions/048-one-shape-per-template.md)', () => {
    const check = { globalPos: 9, pos: 9, estimatedTime: 4, estimatedRange: { low: 1, high: 9 } };
    const kinds = [
      frameTemplate(buildTemplate(row, view, false, 'pt', check)),
      frameTemplate(buildTemplate({ ...row, name: 'Ana -917000001 Souza' }, view, false, 'en', check)),
      frameTemplate(buildTemplate(row, { ...view, hidePosition: true }, false, 'pt', check)),
    ];
    expect(kinds[0]!.frame).toBeDefined();
    expect(kinds[1]!.frame).toBeUndefined();
    expect(kinds[2]!.fixedFrame).toBeDefined();
    for (const template of kinds) expect(Object.keys(template)).toEqual(['version', 'parts', 'fixed', 'frame', 'fixedFrame']);
  });
});
