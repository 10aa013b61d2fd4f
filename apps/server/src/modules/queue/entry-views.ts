import type { EntryReply, HostEntry, Language, LastMessage, MessageStatus, PositionEntry, ReplyKind, VenueMessage } from '@vez/contract';
import { joinedClose } from './getting-close.js';
import type { EntryRow } from '../../db/types.js';
import type { Placement } from './placement.js';
import { routeOf } from './message-route.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** The party's latest answer (docs/product.md §7). */
export function replyOf(row: Pick<EntryRow, 'reply_kind' | 'reply_minutes' | 'reply_at'>): EntryReply | null {
  if (row.reply_kind === null || row.reply_at === null) return null;
  return { kind: row.reply_kind as ReplyKind, minutes: row.reply_minutes, at: new Date(row.reply_at).toISOString() };
}

/** The venue's latest messages as kept on the entry (newest first); none once erased. */
export function venueMessagesOf(row: Pick<EntryRow, 'venue_messages'>): VenueMessage[] {
  if (!row.venue_messages) return [];
  try {
    return JSON.parse(row.venue_messages) as VenueMessage[];
  } catch {
    return [];
  }
}

function lastMessageOf(
  row: Pick<EntryRow, 'last_message_id' | 'last_message_status' | 'last_message_channel' | 'last_message_fallback'>,
): LastMessage | null {
  if (!row.last_message_id || !row.last_message_status) return null;
  return {
    _id: row.last_message_id,
    status: row.last_message_status as MessageStatus,
    ...routeOf(row.last_message_channel, row.last_message_fallback),
  };
}

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
    estimatedRange: options.hidePosition ? undefined : placement.estimatedRange,
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
    reply: replyOf(row),
    holdUntil: iso(row.hold_until),
    joinedClose: joinedClose(row),
    calls: row.calls,
    messages: venueMessagesOf(row),
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
    estimatedRange: placement.estimatedRange,
    quoted:
      row.quoted_minutes === null
        ? null
        : { time: row.quoted_minutes, low: row.quoted_low ?? 0, high: row.quoted_high ?? row.quoted_minutes },
    arrivedAt: new Date(row.created_at).toISOString(),
    notifiedAt: iso(row.notified_at),
    reply: replyOf(row),
    calls: row.calls,
    calledAt: iso(row.notified_at),
    holdUntil: iso(row.hold_until),
    unread: row.unread,
    lastMessage: lastMessageOf(row),
    whatsappOptIn: row.whatsapp_opt_in === 1,
  };
}
