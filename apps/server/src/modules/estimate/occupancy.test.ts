import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CANDIDATE_TABLES } from './candidates.js';
import { freeingTimesAlone } from '../../../test/occupancy-alone.js';
import { freeingTime, freeingTimes, meanTurn, suffixFreeingTimes, turnSurvival } from './occupancy.js';

// docs/decisions/022-wait-estimates.md: the occupancy forecast's arithmetic.

describe('the occupancy forecast', () => {
  it('a table just seated frees after a mean turn', () => {
    const [first] = freeingTimes([0], 60, 1);
    expect(Math.abs(first! - meanTurn(60))).toBeLessThan(1);
    expect(turnSurvival(60, 60)).toBeCloseTo(0.5, 5);
  });

  it('the first of several tables frees sooner than any one of them, the last later', () => {
    const times = freeingTimes([0, 0, 0], 60, 3);
    expect(times[0]).toBeLessThan(meanTurn(60) - 10);
    expect(times[2]).toBeGreaterThan(meanTurn(60) + 10);
    expect(times[0]).toBeLessThan(times[1]!);
    expect(times[1]).toBeLessThan(times[2]!);
  });

  it('a table whose party sat long ago frees sooner than one just seated', () => {
    const [old] = freeingTimes([50], 60, 1);
    const [fresh] = freeingTimes([0], 60, 1);
    expect(old).toBeLessThan(fresh! - 20);
  });

  it('a party seated far past any likely turn has left: its table is free now', () => {
    expect(freeingTimes([400, 0], 60, 2)[0]).toBe(0);
  });

  it('beyond the occupants, each further table waits a whole cycle: a turn and the latency', () => {
    const times = freeingTimes([10, 20], 60, 2);
    expect(freeingTime(times, 2, 1, 60, 8)).toBe(times[1]);
    expect(freeingTime(times, 2, 3, 60, 8)).toBeCloseTo(times[1]! + meanTurn(60) + 8, 9);
  });

  it("every suffix at once: the departures of each candidate's last occupants, as worked out alone", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 400, noNaN: true }), { maxLength: 26 }),
        fc.double({ min: 10, max: 300, noNaN: true }),
        fc.integer({ min: 1, max: 40 }),
        (ages, median, nMax) => {
          const all = suffixFreeingTimes(ages, median, CANDIDATE_TABLES, nMax);
          CANDIDATE_TABLES.forEach((size, i) => {
            if (size > ages.length) return expect(all[i]).toBeNull();
            const alone = freeingTimesAlone(ages.slice(ages.length - size), median, nMax);
            expect(all[i]).toHaveLength(alone.length);
            alone.forEach((t, j) => expect(Math.abs(all[i]![j]! - t)).toBeLessThan(1e-9 * Math.max(1, t)));
          });
        },
      ),
    );
  });
});
