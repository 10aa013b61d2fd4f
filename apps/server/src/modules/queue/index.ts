/**
 * The queue module's public face (docs/ARCHITECTURE.md, Modules): what other modules may use.
 * Its repository and internals stay inside.
 */
export type { QueueDeps, StaffSendBounds } from './queue-deps.js';
export { pruneStaffSends } from './staff-sends.js';
export { type QueueCaches, createQueueCaches } from './queue-caches.js';
export type { PositionCache } from './position-cache.js';
export { type ChangeHooks, type ChangeKind, type JoinContext, createChangeHooks } from './change-hooks.js';
export { type JoinOptions, type JoinRequest, type JoinResult, joinWaitlist, joinWaitlistOnce } from './join.service.js';
export { type JoinAnswer, type JoinKey, joinKeyOf, pruneJoinKeys } from './join-keys.js';
export { findEntryAtVenue, getPosition, getPositionJson, getStatus, getWaitlistStatuses, placeEntry } from './position.service.js';
export { callEntry, editEntry, endEntry, expireOpenEntries, leaveWaitlist, restoreEntry, seatEntry } from './entry-actions.service.js';
export * from './staff-actions.service.js';
export { announceVenueUpdate, setWaitlistState } from './waitlist-state.service.js';
export { type EntryState, OPEN_STATES, TRANSITIONS, type Transition, canTransition, isOpen } from './entry-state.js';
export { type Placement, NOT_WAITING, forEachPlacement, placeQueue, placementOf } from './placement.js';
export { type PaceBook, type Estimate, EMPTY_BOOK, estimate, slotOf } from '../estimate/index.js';
export { toHostEntry, toPositionEntry } from './entry-views.js';
export { QueueCache } from './queue-cache.js';
export { type QueueRow } from './entries.repository.js';
export * from './queue-reads.service.js';
export { FRESH_CONVERSATION, NO_QUOTE } from './conversation-fields.js';
export type { PartyMessenger, QueuedMessage } from './queue-deps.js';
export * from './conversation.service.js';
export { endExpiredHolds } from './entry-actions.service.js';
export { HOLD_CHECK_MS, endsHoldsItself, extendedHoldEnd, holdEndsAt, isHoldOver } from './hold-window.js';
export { sendGettingClose } from './getting-close.service.js';
export { gettingClosePlaces, isGettingClose, mayTellGettingClose } from './getting-close.js';
export { relistFloor } from '../estimate/index.js';
