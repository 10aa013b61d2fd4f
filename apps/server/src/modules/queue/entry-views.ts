import type { HostEntry, Language, PositionEntry } from '@vez/contract';
import type { EntryRow } from '../../db/types.js';
import type { Placement } from './placement.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

const partyWords: Record<Language, [string, string]> = { pt: ['pessoa', 'pessoas'], en: ['person', 'people'] };
const priorityWords: Record<Language, string> = { pt: 'Prioridade', en: 'Priority' };

/**
 * The position view of one entry. A shared (read-only) view never carries the share id or full name.
 * With `hidePosition` it carries no position figures at all (docs/product.md §4): the keys are left
 * undefined, which JSON leaves out.
 */
export function toPositionEntry(
  row: EntryRow,
  placement: Placement,
  options: { hidePosition: boolean; operationMode: 'basic' | 'advanced'; isShared: boolean; lang: Language },
): PositionEntry {
  const [one, many] = partyWords[options.lang];
  const fullName = row.name ?? '';
  const firstName = fullName.split(/\s+/)[0] ?? '';
  return {
    status: row.status,
    globalPos: options.hidePosition ? undefined : placement.globalPos,
    pos: options.hidePosition ? undefined : placement.pos,
    priority: row.priority === 1,
    _id: options.isShared ? row.share_id : row.id,
    arrivedAt: new Date(row.created_at).toISOString(),
    customer: { _id: options.isShared ? row.share_id : row.id, name: options.isShared ? firstName : fullName },
    customerTab: String(row.seq),
    estimatedTime: options.hidePosition ? undefined : placement.estimatedTime,
    origin: { _id: row.origin_label.toLowerCase(), label: row.origin_label },
    partySize: row.party_size,
    venue: row.venue_id,
    hideCustomerPosition: options.hidePosition,
    operationMode: options.operationMode,
    displayHelpers: {
      partyLabel: `${row.party_size} ${row.party_size === 1 ? one : many}`,
      priorityText: row.priority === 1 ? priorityWords[options.lang] : '',
    },
    shareId: options.isShared ? null : row.share_id,
    isShared: options.isShared,
    cancelReason: row.cancel_reason,
    notifiedAt: iso(row.notified_at),
    seatedAt: iso(row.seated_at),
  };
}

/** One entry as staff see it: personal data included (staff sessions only, never on a channel). */
export function toHostEntry(row: EntryRow, placement: Placement): HostEntry {
  return {
    _id: row.id,
    customerTab: String(row.seq),
    status: row.status,
    priority: row.priority === 1,
    partySize: row.party_size,
    name: row.name,
    phone: row.phone,
    email: row.email,
    note: row.note,
    section: row.section,
    originLabel: row.origin_label,
    globalPos: placement.globalPos,
    pos: placement.pos,
    estimatedTime: placement.estimatedTime,
    arrivedAt: new Date(row.created_at).toISOString(),
    notifiedAt: iso(row.notified_at),
  };
}
