import { describe, expect, it } from 'vitest';
import type { EntryRow } from '../../db/types.js';
import { toPositionEntry } from '../queue/index.js';
import { ChunkArena, buildTemplate, fillFrame, frameTemplate, positionChunk, render, renderFull, versionOf } from './position-template.js';

const row: EntryRow = {
  id: 'AAAAAAAAAAAAAAAAAAAAAA',
  share_id: 'BBBBBBBBBBBBBBBBBBBBBB',
  venue_id: '6553f1a2b3c4d5e6f7a8b901',
  seq: 7,
  status: 'active',
  priority: 0,
  party_size: 3,
  band: 1,
  name: 'Ana "Aspas" Souza',
  phone: '+5511987650001',
  email: null,
  note: 'nota',
  section: null,
  origin_label: 'Widget',
  lang: 'pt',
  created_at: 1_763_770_000_000,
  notified_at: null,
  seated_at: null,
  cancelled_at: null,
  cancel_reason: null,
  ended_at: null,
  erased_at: null,
  join_proof_hash: null,
  link_resent_at: null,
};
const view = { hidePosition: false, operationMode: 'basic' as const };
const full = (
  r: EntryRow,
  p: { globalPos: number; pos: number; estimatedTime: number | null },
  isShared = false,
  lang: 'pt' | 'en' = 'pt',
) =>
  JSON.stringify({
    waitlist: toPositionEntry(r, p, { ...view, isShared, lang }),
    waitlistSettings: { hiddenCustomerPosition: false, operationMode: 'basic' },
  });

const placements = [
  [{ globalPos: 5, pos: 5, estimatedTime: null }],
  [{ globalPos: 1, pos: 1, estimatedTime: 12 }],
  [{ globalPos: 0, pos: 0, estimatedTime: null }],
  [{ globalPos: 12_345, pos: 3, estimatedTime: 999 }],
] as const;

describe('position templates', () => {
  it.each(placements)('renders exactly what a full serialisation gives for %j', (placement) => {
    for (const [isShared, lang] of [
      [false, 'pt'],
      [true, 'en'],
    ] as const) {
      const template = buildTemplate(row, view, isShared, lang, { globalPos: 9, pos: 9, estimatedTime: 4 });
      expect(template.parts).toBeDefined();
      expect(render(template, placement)).toBe(full(row, placement, isShared, lang));
    }
  });

  it('falls back to full serialisation when a hole cannot be found once', () => {
    const odd = { ...row, name: 'Ana -917000001 Souza' };
    const template = buildTemplate(odd, view, false, 'pt', { globalPos: 2, pos: 2, estimatedTime: null });
    expect(template.parts).toBeUndefined();
    expect(render(template, { globalPos: 3, pos: 3, estimatedTime: null })).toBeUndefined();
    expect(renderFull(odd, { globalPos: 3, pos: 3, estimatedTime: null }, view, false, 'pt')).toBe(
      full(odd, { globalPos: 3, pos: 3, estimatedTime: null }),
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
    const arena = new ChunkArena(1024); // small slabs: several messages cross into new ones
    for (const [isShared, lang] of [
      [false, 'pt'],
      [true, 'en'],
    ] as const) {
      const template = frameTemplate(buildTemplate(accented, view, isShared, lang, { globalPos: 9, pos: 9, estimatedTime: 4 }));
      const message = Buffer.from(fillFrame(template.frame!, placement));
      for (let i = 0; i < 3; i++) {
        const chunk = positionChunk(arena, template, placement)!;
        expect(chunk.toString()).toBe(`${message.length.toString(16)}\r\n${message.toString()}\r\n`);
        expect(message.toString()).toBe(`event: position\ndata: ${full(accented, placement, isShared, lang)}\n\n`);
      }
    }
  });

  it('leaves to the string path what is not a plain count, and a template without holes', () => {
    const template = frameTemplate(buildTemplate(row, view, false, 'pt', { globalPos: 2, pos: 2, estimatedTime: null }));
    expect(positionChunk(new ChunkArena(), template, { globalPos: 2, pos: 2, estimatedTime: 1.5 })).toBeUndefined();
    const holeless = frameTemplate(
      buildTemplate({ ...row, name: 'Ana -917000001 Souza' }, view, false, 'pt', { globalPos: 2, pos: 2, estimatedTime: null }),
    );
    expect(positionChunk(new ChunkArena(), holeless, { globalPos: 2, pos: 2, estimatedTime: null })).toBeUndefined();
  });

  it('a venue that hides positions gets one message for every placement, with no figures (docs/product.md §4)', () => {
    const hidden = { hidePosition: true, operationMode: 'basic' as const };
    const template = frameTemplate(buildTemplate(row, hidden, false, 'pt', { globalPos: 9, pos: 9, estimatedTime: 4 }));
    expect(template.fixed).toBeDefined();
    for (const placement of placements.map(([p]) => p)) {
      expect(render(template, placement)).toBe(renderFull(row, placement, hidden, false, 'pt'));
      expect(render(template, placement)).not.toMatch(/globalPos|"pos"|estimatedTime/);
    }
    const message = `event: position\ndata: ${template.fixed}\n\n`;
    expect(template.fixedFrame).toBe(message);
    expect(template.fixedChunk?.toString()).toBe(`${Buffer.byteLength(message).toString(16)}\r\n${message}\r\n`);
  });

  it('never hands out the same bytes twice', () => {
    const arena = new ChunkArena(16);
    const a = arena.take(10);
    const b = arena.take(10); // does not fit: a new slab
    const c = arena.take(40); // larger than a slab: a slab of its own
    a.fill(1);
    b.fill(2);
    c.fill(3);
    expect([a.every((x) => x === 1), b.every((x) => x === 2), c.every((x) => x === 3)]).toEqual([true, true, true]);
  });
});
