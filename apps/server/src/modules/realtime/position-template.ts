import { type Language, type PositionResponse, StreamMessage } from '@vez/contract';
import type { EntryRow } from '../../db/types.js';
import { type Placement, toPositionEntry } from '../queue/index.js';

/**
 * A diner's stream message, pre-serialised with holes for the three figures a queue change moves
 * (globalPos, pos, estimatedTime). A change then costs each subscriber three string joins instead
 * of building and serialising a whole object: this is what keeps 10,000 streams near the cost of
 * a bare broadcast. The template is rebuilt whenever anything else of the entry or of the venue's
 * view changes (the version), and checked against a real serialisation when built, so a change to
 * toPositionEntry can make it slower, never wrong.
 */
export interface PositionTemplate {
  version: string;
  parts: [string, string, string, string] | undefined;
  /**
   * The whole message when it carries no figures (the venue hides positions, docs/product.md §4): the
   * same for every placement, so a change costs a subscriber nothing to build.
   */
  fixed?: string;
}

export interface PositionView {
  hidePosition: boolean;
  operationMode: 'basic' | 'advanced';
}

const HOLES = { globalPos: -917_000_001, pos: -917_000_002, estimatedTime: -917_000_003 } as const;

/**
 * Everything besides the placement that the message shows and that can change while the entry is
 * open (its name, times and ids cannot; retention erases only ended entries).
 */
export function versionOf(
  row: Pick<EntryRow, 'status' | 'priority' | 'party_size' | 'cancel_reason' | 'notified_at' | 'seated_at'>,
  view: PositionView,
): string {
  return `${row.status}|${row.priority}|${row.party_size}|${row.cancel_reason}|${row.notified_at}|${row.seated_at}|${view.hidePosition}|${view.operationMode}`;
}

function serialise(row: EntryRow, placement: Placement, view: PositionView, isShared: boolean, lang: Language): string {
  const message: PositionResponse = {
    waitlist: toPositionEntry(row, placement, { ...view, isShared, lang }),
    waitlistSettings: { hiddenCustomerPosition: view.hidePosition, operationMode: view.operationMode },
  };
  return JSON.stringify(message);
}

const fill = (parts: readonly string[], p: Placement): string =>
  parts[0]! + p.globalPos + parts[1]! + p.pos + parts[2]! + (p.estimatedTime === null ? 'null' : p.estimatedTime) + parts[3]!;

export function buildTemplate(row: EntryRow, view: PositionView, isShared: boolean, lang: Language, check: Placement): PositionTemplate {
  const version = versionOf(row, view);
  const json = serialise(row, HOLES, view, isShared, lang);
  if (view.hidePosition) {
    return json === serialise(row, check, view, isShared, lang)
      ? { version, parts: undefined, fixed: json }
      : { version, parts: undefined };
  }
  const g = json.split(String(HOLES.globalPos));
  if (g.length !== 2) return { version, parts: undefined };
  const p = g[1]!.split(String(HOLES.pos));
  if (p.length !== 2) return { version, parts: undefined };
  const e = p[1]!.split(String(HOLES.estimatedTime));
  if (e.length !== 2) return { version, parts: undefined };
  const parts: [string, string, string, string] = [g[0]!, p[0]!, e[0]!, e[1]!];
  return { version, parts: fill(parts, check) === serialise(row, check, view, isShared, lang) ? parts : undefined };
}

/** The message for this placement from a template; undefined when the template has no holes. */
export function render(template: PositionTemplate, placement: Placement): string | undefined {
  return template.parts ? fill(template.parts, placement) : template.fixed;
}

/** The message serialised in full (templates that could not be made, and their checks). */
export function renderFull(row: EntryRow, placement: Placement, view: PositionView, isShared: boolean, lang: Language): string {
  return serialise(row, placement, view, isShared, lang);
}

/** A position template with the SSE framing baked into its first and last parts. */
export interface FramedTemplate extends PositionTemplate {
  frame: [string, string, string, string] | undefined;
  /** The same four parts as UTF-8 bytes, to write whole HTTP chunks without building strings. */
  frameBytes: [Buffer, Buffer, Buffer, Buffer] | undefined;
  /** Their total size: with the figures' digits, the size of a message. */
  frameSize: number;
  /** A message without figures (PositionTemplate.fixed), framed, and as one whole HTTP chunk. */
  fixedFrame?: string;
  fixedChunk?: Buffer;
}

const FRAME_HEAD = `event: ${StreamMessage.position}\ndata: `;

export function frameTemplate(template: PositionTemplate): FramedTemplate {
  if (template.fixed !== undefined) {
    const fixedFrame = `${FRAME_HEAD}${template.fixed}\n\n`;
    const bytes = Buffer.from(fixedFrame);
    const fixedChunk = Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]);
    return { ...template, frame: undefined, frameBytes: undefined, frameSize: 0, fixedFrame, fixedChunk };
  }
  const p = template.parts;
  const frame: FramedTemplate['frame'] = p ? [FRAME_HEAD + p[0], p[1], p[2], `${p[3]}\n\n`] : undefined;
  const frameBytes = frame ? (frame.map((part) => Buffer.from(part)) as [Buffer, Buffer, Buffer, Buffer]) : undefined;
  return { ...template, frame, frameBytes, frameSize: frameBytes ? frameBytes.reduce((sum, b) => sum + b.length, 0) : 0 };
}

export function fillFrame(f: readonly string[], p: Placement): string {
  return f[0]! + p.globalPos + f[1]! + p.pos + f[2]! + (p.estimatedTime === null ? 'null' : p.estimatedTime) + f[3]!;
}

const CR = 13;
const LF = 10;
const NULL_BYTES = Buffer.from('null');
const HEX = Buffer.from('0123456789abcdef');

/** Characters of a number as JSON writes it (whole, not negative: the placements' figures). */
function digitsOf(n: number): number {
  let digits = 1;
  while (n >= 10) {
    n = Math.floor(n / 10);
    digits += 1;
  }
  return digits;
}

const isPlainCount = (n: number) => Number.isSafeInteger(n) && n >= 0;

function writeDigits(out: Buffer, at: number, n: number, digits: number): number {
  for (let i = at + digits - 1; i >= at; i--) {
    out[i] = 48 + (n % 10);
    n = Math.floor(n / 10);
  }
  return at + digits;
}

/**
 * Hands out bytes for one fan-out's messages from large slabs: one allocation per few hundred
 * messages instead of one per message. A slab is never written twice (the socket may still hold
 * an earlier part of it), so a spent slab is simply left to the garbage collector.
 */
export class ChunkArena {
  private slab = Buffer.alloc(0);
  private used = 0;

  constructor(private readonly slabSize = 256 * 1024) {}

  take(size: number): Buffer {
    if (this.used + size > this.slab.length) {
      this.slab = Buffer.allocUnsafe(Math.max(this.slabSize, size));
      this.used = 0;
    }
    const out = this.slab.subarray(this.used, this.used + size);
    this.used += size;
    return out;
  }
}

/**
 * fillFrame(template.frame, p) as one whole HTTP/1.1 chunk (size in hex, CRLF, the message, CRLF),
 * copied from the template's bytes; undefined when the template has no holes or a figure is not a
 * plain count (then the string path writes it).
 */
export function positionChunk(arena: ChunkArena, template: FramedTemplate, p: Placement): Buffer | undefined {
  const parts = template.frameBytes;
  const estimate = p.estimatedTime;
  if (!parts || !isPlainCount(p.globalPos) || !isPlainCount(p.pos) || (estimate !== null && !isPlainCount(estimate))) return undefined;
  const g = digitsOf(p.globalPos);
  const q = digitsOf(p.pos);
  const e = estimate === null ? NULL_BYTES.length : digitsOf(estimate);
  const size = template.frameSize + g + q + e;
  let hex = 1;
  while (size >= 16 ** hex) hex += 1;
  const out = arena.take(hex + 2 + size + 2);
  for (let i = hex - 1, n = size; i >= 0; i--, n >>>= 4) out[i] = HEX[n & 15]!;
  let at = hex;
  out[at++] = CR;
  out[at++] = LF;
  out.set(parts[0], at);
  at += parts[0].length;
  at = writeDigits(out, at, p.globalPos, g);
  out.set(parts[1], at);
  at += parts[1].length;
  at = writeDigits(out, at, p.pos, q);
  out.set(parts[2], at);
  at += parts[2].length;
  if (estimate === null) {
    out.set(NULL_BYTES, at);
    at += NULL_BYTES.length;
  } else at = writeDigits(out, at, estimate, e);
  out.set(parts[3], at);
  at += parts[3].length;
  out[at++] = CR;
  out[at] = LF;
  return out;
}
