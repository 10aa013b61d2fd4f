import { type Language, type PositionResponse, StreamMessage } from '@vez/contract';
import type { EntryRow } from '../../db/types.js';
import { flatString } from '../../lib/flat-string.js';
import { type Placement, toPositionEntry } from '../queue/index.js';

/**
 * A diner's stream message, pre-serialised with holes for the figures a queue change moves
 * (globalPos, pos, estimatedTime, estimatedRange). A change then costs each subscriber a few string joins instead
 * of building and serialising a whole object: this is what keeps 10,000 streams near the cost of
 * a bare broadcast. The template is rebuilt whenever anything else of the entry or of the venue's
 * view changes (the version), and checked against a real serialisation when built, so a change to
 * toPositionEntry can make it slower, never wrong.
 */
export interface PositionTemplate {
  version: string;
  parts: Parts | undefined;
  /**
   * The whole message when it carries no figures (the venue hides positions, docs/product.md §4): the
   * same for every placement, so a change costs a subscriber nothing to build.
   */
  fixed?: string;
}

export interface PositionView {
  hidePosition: boolean;
  operationMode: 'basic' | 'advanced';
  /** The venue's getting-close rule, which the page's notice asks (docs/product.md §8). */
  gettingCloseAt: number;
  gettingCloseMinutes: number;
}

/** The text between the holes: five pieces around four figures. */
type Parts = [string, string, string, string, string];

/** Numbers no real message carries; the range's hole stands for the whole `{low, high}` object (or null). */
const RANGE_HOLE = -917_000_004;
const HOLES = {
  globalPos: -917_000_001,
  pos: -917_000_002,
  estimatedTime: -917_000_003,
  estimatedRange: RANGE_HOLE as unknown as Placement['estimatedRange'],
} as const satisfies Placement;
const HOLE_ORDER = [HOLES.globalPos, HOLES.pos, HOLES.estimatedTime, RANGE_HOLE] as const;

const rangeText = (r: Placement['estimatedRange']): string => (r === null ? 'null' : `{"low":${r.low},"high":${r.high}}`);

/**
 * Everything besides the placement that the message shows and that can change while the entry is
 * open (its name, times and ids cannot; retention erases only ended entries; `joinedClose` is
 * settled by the join itself, getting-close.ts).
 */
export function versionOf(
  row: Pick<
    EntryRow,
    'status' | 'priority' | 'party_size' | 'cancel_reason' | 'notified_at' | 'seated_at' | 'reply_at' | 'hold_until' | 'venue_message_at'
  >,
  view: PositionView,
): string {
  // Flat (lib/flat-string.ts): every kept template and entry holds its version for the entry's life.
  return flatString(
    `${row.status}|${row.priority}|${row.party_size}|${row.cancel_reason}|${row.notified_at}|${row.seated_at}|${row.reply_at}|${row.hold_until}|${row.venue_message_at}|${view.hidePosition}|${view.operationMode}|${view.gettingCloseAt}|${view.gettingCloseMinutes}`,
  );
}

function serialise(row: EntryRow, placement: Placement, view: PositionView, isShared: boolean, lang: Language): string {
  const message: PositionResponse = {
    // Written out: a spread with fields after it (`{ ...view, isShared, lang }`) gets a hidden
    // class of its own each time, and every read of it in toPositionEntry misses V8's caches
    // (docs/decisions/048-one-shape-per-template.md).
    waitlist: toPositionEntry(row, placement, { hidePosition: view.hidePosition, operationMode: view.operationMode, isShared, lang }),
    waitlistSettings: {
      hiddenCustomerPosition: view.hidePosition,
      operationMode: view.operationMode,
      gettingCloseAt: view.gettingCloseAt,
      gettingCloseMinutes: view.gettingCloseMinutes,
    },
  };
  return JSON.stringify(message);
}

const fill = (parts: readonly string[], p: Placement): string =>
  parts[0]! +
  p.globalPos +
  parts[1]! +
  p.pos +
  parts[2]! +
  (p.estimatedTime === null ? 'null' : p.estimatedTime) +
  parts[3]! +
  rangeText(p.estimatedRange) +
  parts[4]!;

/** The message cut at each hole, in order; undefined when a hole is not found exactly once. */
function cut(json: string): Parts | undefined {
  const parts: string[] = [];
  let rest = json;
  for (const hole of HOLE_ORDER) {
    const pieces = rest.split(String(hole));
    if (pieces.length !== 2) return undefined;
    parts.push(pieces[0]!);
    rest = pieces[1]!;
  }
  parts.push(rest);
  return parts as Parts;
}

export function buildTemplate(row: EntryRow, view: PositionView, isShared: boolean, lang: Language, check: Placement): PositionTemplate {
  const version = versionOf(row, view);
  const json = serialise(row, HOLES, view, isShared, lang);
  if (view.hidePosition) {
    return json === serialise(row, check, view, isShared, lang)
      ? { version, parts: undefined, fixed: json }
      : { version, parts: undefined };
  }
  const parts = cut(json);
  if (!parts) return { version, parts: undefined };
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

/**
 * A position template with the SSE framing baked into its first and last parts. Every one has the
 * same fields, set in the same order (frameTemplate), so all share one hidden class and the fan-out
 * reads them as an object's own fields. A spread with fields after it (`{ ...template, frame }`)
 * gave each template a hidden class of its own: with 10,000 of them every read of `version` or
 * `frame` in the fan-out missed V8's caches (docs/decisions/048-one-shape-per-template.md).
 */
export interface FramedTemplate {
  version: string;
  parts: Parts | undefined;
  fixed: string | undefined;
  frame: Parts | undefined;
  /** A message without figures (PositionTemplate.fixed), framed. */
  fixedFrame: string | undefined;
}

const FRAME_HEAD = `event: ${StreamMessage.position}\ndata: `;

export function frameTemplate(template: PositionTemplate): FramedTemplate {
  const { version, parts: p, fixed } = template;
  return {
    version,
    parts: p,
    fixed,
    // Flat: each is kept as long as the entry's view stays (lib/flat-string.ts).
    frame: p ? [flatString(FRAME_HEAD + p[0]), p[1], p[2], p[3], flatString(`${p[4]}\n\n`)] : undefined,
    fixedFrame: fixed === undefined ? undefined : flatString(`${FRAME_HEAD}${fixed}\n\n`),
  };
}

export function fillFrame(f: readonly string[], p: Placement): string {
  return fill(f, p);
}
