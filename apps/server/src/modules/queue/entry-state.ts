import { ErrorCode, type EntryStatus, type WaitlistEventName } from '@vez/contract';
import { AppError } from '../../lib/app-error.js';

/**
 * A party's life in one place (docs/decisions/017-queue-module.md). An entry is `active` (waiting)
 * from its join, `called` once staff call it, and ends `seated` or `cancelled` (with a reason).
 * Every change of state is a named transition here: the states it starts from, the state it leads
 * to, the event it publishes on the venue's channel and the refusal when it does not apply. New
 * states and transitions of the party's life are added here, and each has its test
 * (entry-state.test.ts).
 */

export type EntryState = EntryStatus;

/** Waiting or called: on the list, and every open-entry rule applies. */
export const OPEN_STATES: readonly EntryState[] = ['active', 'called'];
export const isOpen = (status: EntryState): boolean => status === 'active' || status === 'called';

interface TransitionRule {
  from: readonly EntryState[];
  /** The state it leads to; `same` keeps the state (an edit). */
  to: EntryState | 'same' | 'reopened';
  /** What it publishes on the venue's channel. */
  event: WaitlistEventName;
  /** The answer when the entry is in none of the `from` states. */
  refusal: { code: ErrorCode; message?: string };
}

const NOT_OPEN = { code: ErrorCode.ENTRY_NOT_ACTIVE };

export const TRANSITIONS = {
  /** A new entry: a remote join or a walk-in added by staff. */
  join: { from: [], to: 'active', event: 'add', refusal: NOT_OPEN },
  /** Staff call a waiting party to the door; calling a called party calls it again (docs/product.md §8). */
  call: { from: OPEN_STATES, to: 'called', event: 'call', refusal: NOT_OPEN },
  /** The hold window of a called party ran out and the venue marks no-shows itself (`autoNoShow`). */
  holdExpired: { from: ['called'], to: 'cancelled', event: 'cancel', refusal: NOT_OPEN },
  /** Staff seat a waiting or called party; the venue's seating pace learns from it. */
  seat: { from: OPEN_STATES, to: 'seated', event: 'seat', refusal: NOT_OPEN },
  /** Staff end a party with reason Host or NoShow. */
  cancel: { from: OPEN_STATES, to: 'cancelled', event: 'cancel', refusal: NOT_OPEN },
  /** Staff take a party off the list (reason Removed). */
  remove: { from: OPEN_STATES, to: 'cancelled', event: 'remove', refusal: NOT_OPEN },
  /** The diner leaves (reason Customer). */
  leave: {
    from: OPEN_STATES,
    to: 'cancelled',
    event: 'cancel',
    refusal: { code: ErrorCode.FAILED_TO_LEAVE_WAITLIST, message: 'You are no longer on the waitlist.' },
  },
  /** Nobody waits a day: the retention job ends what is still open (reason Expired). */
  expire: { from: OPEN_STATES, to: 'cancelled', event: 'cancel', refusal: NOT_OPEN },
  /** Staff change party size, note or priority. */
  edit: { from: OPEN_STATES, to: 'same', event: 'update', refusal: NOT_OPEN },
  /** The party answers from its page or by SMS: on my way, more time, I'm here (docs/product.md §7). */
  reply: { from: OPEN_STATES, to: 'same', event: 'update', refusal: NOT_OPEN },
  /** The party writes to the venue (an SMS that is no keyword). */
  partyMessage: { from: OPEN_STATES, to: 'same', event: 'update', refusal: NOT_OPEN },
  /** Staff write to the party; the diner's page shows it. */
  staffMessage: { from: OPEN_STATES, to: 'same', event: 'update', refusal: NOT_OPEN },
  /** The console's undo: back to waiting, or to called if it had been called. */
  restore: {
    from: ['seated', 'cancelled'],
    to: 'reopened',
    event: 'update',
    refusal: { code: ErrorCode.ENTRY_NOT_ACTIVE, message: 'Only a party seated or removed by staff can be put back.' },
  },
} as const satisfies Record<string, TransitionRule>;

export type Transition = keyof typeof TRANSITIONS;

export function canTransition(transition: Transition, status: EntryState): boolean {
  return (TRANSITIONS[transition].from as readonly EntryState[]).includes(status);
}

/** The answer to a transition the entry may not take. */
export function refusalOf(transition: Transition): AppError {
  const { code, message } = TRANSITIONS[transition].refusal as TransitionRule['refusal'];
  return new AppError(code, message);
}

/** Throws the transition's refusal unless the entry may take it. */
export function assertTransition(transition: Transition, status: EntryState): void {
  if (!canTransition(transition, status)) throw refusalOf(transition);
}

/** The state after a transition; `notifiedAt` tells a restored party whether it had been called. */
export function stateAfter(transition: Transition, entry: { status: EntryState; notified_at: number | null }): EntryState {
  const to: TransitionRule['to'] = TRANSITIONS[transition].to;
  if (to === 'same') return entry.status;
  if (to === 'reopened') return entry.notified_at === null ? 'active' : 'called';
  return to;
}

export const eventOf = (transition: Transition): WaitlistEventName => TRANSITIONS[transition].event;
