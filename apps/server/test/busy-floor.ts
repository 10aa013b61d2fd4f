import { type FloorState, freshFloor } from '../src/modules/estimate/floor.js';

/** The tables of a busy venue: 22 of them, from twos to eights (bench/lib/busy-venue.ts, floor.test.ts). */
export const BUSY_TABLES = [
  { seats: 2, count: 9 },
  { seats: 4, count: 8 },
  { seats: 6, count: 3 },
  { seats: 8, count: 2 },
];

/**
 * A busy venue's floor with a history, enough to forecast: turns and walks seen, `leaveShare` of
 * the waiting giving up, every table busy for a while at `now` but the one at index `free`.
 */
export function busyFloorState(now: number, leaveShare: number, free?: number): FloorState {
  const state = freshFloor(BUSY_TABLES);
  state.turns = [
    { band: 0, mean: 55, n: 40 },
    { band: 1, mean: 68, n: 30 },
    { band: 2, mean: 82, n: 12 },
  ];
  state.walks = [4, 6, 5, 3, 7, 5, 4, 6];
  state.leaveShare = leaveShare;
  state.tables.forEach((t, i) => Object.assign(t, { busySince: i === free ? null : now - ((i * 7) % 60) * 60_000, party: t.seats }));
  return state;
}
