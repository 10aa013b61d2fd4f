import type { HostEntry } from '@vez/contract';

/** A waiting party as the console lists it (Ana Souza, ticket 7, first in the queue), with `patch` over it. */
export const hostEntry = (patch: Partial<HostEntry> = {}): HostEntry => ({
  _id: 'e1',
  customerTab: '7',
  status: 'active',
  priority: false,
  partySize: 2,
  name: 'Ana Souza',
  phone: '+5511987650001',
  email: null,
  note: null,
  section: null,
  originLabel: 'Widget',
  globalPos: 1,
  pos: 1,
  quoted: null,
  arrivedAt: '2026-11-24T19:00:00.000Z',
  notifiedAt: null,
  reply: null,
  calls: 0,
  calledAt: null,
  holdUntil: null,
  unread: 0,
  lastMessage: null,
  ...patch,
});
