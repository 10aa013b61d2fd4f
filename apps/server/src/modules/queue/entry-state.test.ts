import type { VenueChannelEvent } from '@vez/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, nextPhone } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { setVenueSettings } from '../../../test/venues.js';
import { stores } from '../../../test/stores.js';
import type { EntryRow } from '../../db/types.js';
import { AppError } from '../../lib/app-error.js';
import {
  callEntry,
  editEntry,
  endEntry,
  endExpiredHolds,
  expireOpenEntries,
  leaveWaitlist,
  restoreEntry,
  seatEntry,
} from './entry-actions.service.js';
import { type EntryState, TRANSITIONS, type Transition, canTransition, stateAfter } from './entry-state.js';
import { messageFromParty, messageToParty, replyToVenue } from './conversation.service.js';
import { joinWaitlist } from './join.service.js';
import { findEntryById } from './queue-reads.service.js';

const ALL_STATES: EntryState[] = ['active', 'called', 'seated', 'cancelled'];

describe('the entry state machine (entry-state.ts)', () => {
  it('names where each transition may start and where it leads', () => {
    const table = Object.fromEntries(
      (Object.keys(TRANSITIONS) as Transition[]).map((t) => [t, ALL_STATES.filter((s) => canTransition(t, s))]),
    );
    expect(table).toEqual({
      join: [],
      call: ['active', 'called'],
      seat: ['active', 'called'],
      cancel: ['active', 'called'],
      remove: ['active', 'called'],
      holdExpired: ['called'],
      leave: ['active', 'called'],
      expire: ['active', 'called'],
      edit: ['active', 'called'],
      reply: ['active', 'called'],
      partyMessage: ['active', 'called'],
      staffMessage: ['active', 'called'],
      restore: ['seated', 'cancelled'],
    });
    expect(stateAfter('call', { status: 'active', notified_at: null })).toBe('called');
    expect(stateAfter('edit', { status: 'called', notified_at: 1 })).toBe('called');
    expect(stateAfter('restore', { status: 'seated', notified_at: null })).toBe('active');
    expect(stateAfter('restore', { status: 'cancelled', notified_at: 1 })).toBe('called');
  });
});

describe.each(stores)('every transition of an entry on $name', (store) => {
  const t = useTestApp(store);
  let events: VenueChannelEvent[];
  beforeAll(async () => {
    events = [];
    t.app.bus.subscribe(DEMO_BISTRO_ID, (event) => events.push(event));
  });

  const deps = () => t.app.queueDeps;
  const join = async (): Promise<EntryRow> => {
    const { entry } = await joinWaitlist(deps(), DEMO_BISTRO_ID, {
      customer: { name: 'Lia Prado', phone: nextPhone() },
      partySize: 2,
      originLabel: 'Widget',
    });
    return entry;
  };
  const reread = async (entry: EntryRow) => (await findEntryById(t.db.kysely, entry.id))!;
  /** Runs a step and answers the events it published on the venue's channel. */
  const publishedBy = async (step: () => Promise<unknown>) => {
    const before = events.length;
    await step();
    await new Promise((resolve) => setImmediate(resolve));
    // A message's delivery report is a change of its own, for staff only and not the party's doing
    // (docs/product.md §7): not counted here. A party's own message is staff-only too, and counts.
    return events
      .slice(before)
      .filter((e) => !e.staffOnly || e.byParty)
      .map((e) => e.type);
  };
  const refusalOf = async (step: () => Promise<unknown>) => {
    const error = await step().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).code;
  };

  /** One case per transition; the first test fails when a transition has none. */
  const cases: Record<Transition, () => Promise<void>> = {
    join: async () => {
      let entry: EntryRow | undefined;
      expect(await publishedBy(async () => (entry = await join()))).toEqual(['add']);
      expect((await reread(entry!)).status).toBe('active');
    },
    call: async () => {
      const entry = await join();
      expect(await publishedBy(() => callEntry(deps(), entry))).toEqual(['call']);
      const called = await reread(entry);
      expect(called.status).toBe('called');
      expect(called.notified_at).not.toBeNull();
      // Calling a called party calls it again (docs/product.md §8): one more call, a new window.
      t.clock.now += 60_000;
      expect(await publishedBy(() => callEntry(deps(), called))).toEqual(['call']);
      const again = await reread(entry);
      expect([again.status, again.calls, again.hold_until]).toEqual(['called', 2, t.clock.now + 10 * 60_000]);
      const seated = await seatEntry(deps(), again);
      expect(await refusalOf(() => callEntry(deps(), seated))).toBe('ENTRY_NOT_ACTIVE');
    },
    holdExpired: async () => {
      await setVenueSettings(t, { autoNoShow: true });
      try {
        const called = await callEntry(deps(), await join());
        t.clock.now = called.hold_until! + 1;
        expect(await publishedBy(() => endExpiredHolds(deps()))).toContain('cancel');
        const ended = await reread(called);
        expect([ended.status, ended.cancel_reason]).toEqual(['cancelled', 'NoShow']);
        // Only a called party's window ends it: a waiting one is not touched.
        const waiting = await join();
        t.clock.now += 3_600_000;
        await endExpiredHolds(deps());
        expect((await reread(waiting)).status).toBe('active');
      } finally {
        await setVenueSettings(t, { autoNoShow: false });
      }
    },
    seat: async () => {
      const entry = await join();
      expect(await publishedBy(() => seatEntry(deps(), entry))).toEqual(['seat']);
      const seated = await reread(entry);
      expect(seated.status).toBe('seated');
      expect(await refusalOf(() => seatEntry(deps(), seated))).toBe('ENTRY_NOT_ACTIVE');
    },
    cancel: async () => {
      const entry = await callEntry(deps(), await join());
      expect(await publishedBy(() => endEntry(deps(), entry, 'cancel', 'NoShow'))).toEqual(['cancel']);
      const ended = await reread(entry);
      expect([ended.status, ended.cancel_reason]).toEqual(['cancelled', 'NoShow']);
      expect(await refusalOf(() => endEntry(deps(), ended, 'cancel', 'Host'))).toBe('ENTRY_NOT_ACTIVE');
    },
    remove: async () => {
      const entry = await join();
      expect(await publishedBy(() => endEntry(deps(), entry, 'remove', 'Removed'))).toEqual(['remove']);
      const ended = await reread(entry);
      expect([ended.status, ended.cancel_reason]).toEqual(['cancelled', 'Removed']);
      expect(await refusalOf(() => endEntry(deps(), ended, 'remove', 'Removed'))).toBe('ENTRY_NOT_ACTIVE');
    },
    leave: async () => {
      const entry = await join();
      expect(await publishedBy(() => leaveWaitlist(deps(), entry.id, DEMO_BISTRO_ID))).toEqual(['cancel']);
      const ended = await reread(entry);
      expect([ended.status, ended.cancel_reason]).toEqual(['cancelled', 'Customer']);
      expect(await refusalOf(() => leaveWaitlist(deps(), entry.id, DEMO_BISTRO_ID))).toBe('FAILED_TO_LEAVE_WAITLIST');
      // A shared link may read, never leave.
      const other = await join();
      expect(await refusalOf(() => leaveWaitlist(deps(), other.share_id, DEMO_BISTRO_ID))).toBe('SHARED_LINK_READ_ONLY');
    },
    expire: async () => {
      const entry = await join();
      const published = await publishedBy(() => expireOpenEntries(deps(), entry.created_at + 1));
      expect(published).toContain('cancel');
      const ended = await reread(entry);
      expect([ended.status, ended.cancel_reason]).toEqual(['cancelled', 'Expired']);
    },
    edit: async () => {
      const entry = await join();
      expect(await publishedBy(() => editEntry(deps(), entry, { partySize: 5, priority: true }, 20))).toEqual(['update']);
      const edited = await reread(entry);
      expect([edited.status, edited.party_size, edited.priority]).toEqual(['active', 5, 1]);
      const seated = await seatEntry(deps(), edited);
      expect(await refusalOf(() => editEntry(deps(), seated, { partySize: 3 }, 20))).toBe('ENTRY_NOT_ACTIVE');
    },
    reply: async () => {
      const entry = await join();
      expect(await publishedBy(() => replyToVenue(deps(), entry, 'onMyWay', null))).toEqual(['update']);
      const answered = await reread(entry);
      expect([answered.status, answered.reply_kind, answered.reply_minutes]).toEqual(['active', 'onMyWay', null]);
      // Called: more time extends the hold window once per call.
      const called = await callEntry(deps(), answered);
      await replyToVenue(deps(), called, 'needMoreTime', 5);
      const extended = await reread(entry);
      expect(extended.hold_until).toBe(called.hold_until! + 5 * 60_000);
      await replyToVenue(deps(), extended, 'needMoreTime', 15);
      expect((await reread(entry)).hold_until).toBe(extended.hold_until);
      const seated = await seatEntry(deps(), await reread(entry));
      expect(await refusalOf(() => replyToVenue(deps(), seated, 'arrived', null))).toBe('ENTRY_NOT_ACTIVE');
    },
    partyMessage: async () => {
      const entry = await join();
      expect(await publishedBy(() => messageFromParty(deps(), entry, 'Estacionando'))).toEqual(['update']);
      const written = await reread(entry);
      expect([written.status, written.unread]).toEqual(['active', 1]);
      const seated = await seatEntry(deps(), written);
      expect(await refusalOf(() => messageFromParty(deps(), seated, 'Oi'))).toBe('ENTRY_NOT_ACTIVE');
    },
    staffMessage: async () => {
      const entry = await join();
      expect(await publishedBy(() => messageToParty(deps(), entry, 'Mesa quase pronta'))).toEqual(['update']);
      const written = await reread(entry);
      expect(written.status).toBe('active');
      expect(JSON.parse(written.venue_messages!)).toMatchObject([{ text: 'Mesa quase pronta' }]);
      const seated = await seatEntry(deps(), written);
      expect(await refusalOf(() => messageToParty(deps(), seated, 'Oi'))).toBe('ENTRY_NOT_ACTIVE');
    },
    restore: async () => {
      const called = await callEntry(deps(), await join());
      const seated = await seatEntry(deps(), called);
      expect(await publishedBy(() => restoreEntry(deps(), seated))).toEqual(['update']);
      expect((await reread(called)).status).toBe('called');
      const waiting = await join();
      expect(await refusalOf(() => restoreEntry(deps(), waiting))).toBe('ENTRY_NOT_ACTIVE');
      // A diner's own leave is theirs: staff cannot undo it.
      await leaveWaitlist(deps(), waiting.id, DEMO_BISTRO_ID);
      expect(await refusalOf(async () => restoreEntry(deps(), await reread(waiting)))).toBe('ENTRY_NOT_ACTIVE');
    },
  };

  it('has a case for every transition', () => {
    expect(Object.keys(cases).sort()).toEqual(Object.keys(TRANSITIONS).sort());
  });

  for (const [transition, run] of Object.entries(cases)) {
    it(`${transition}: from its states to the next, with its event; refused from others`, run);
  }
});
