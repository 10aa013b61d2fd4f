import type { HostEntry } from '@vez/contract';
import type { EntryRow } from '../../db/types.js';
import type { Placement } from '../waitlist/entry-view.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

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
