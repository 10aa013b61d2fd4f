import type { HostStatsQuery, HostStatsResponse, QuoteAccuracy } from '@vez/contract';
import { getVenue } from '../venues/venues.service.js';
import { type QueueDeps as WaitlistDeps, listDayEntries } from '../queue/index.js';
import { sentByChannel } from '../notifications/sent-figures.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/** Nearest-rank percentile of sorted values (p in 0..1). */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil(p * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] ?? null;
}

const toMinutes = (ms: number | null) => (ms === null ? null : Math.round(ms / MINUTE_MS));

/** A seated party's wait against the quote it was given at join (docs/product.md §4), minutes. */
interface QuoteOutcome {
  error: number;
  within: boolean;
}

/** Median error, median absolute error and the share within range of some quoted parties; null for none. */
export function quoteAccuracyOf(outcomes: readonly QuoteOutcome[]): QuoteAccuracy | null {
  if (outcomes.length === 0) return null;
  const errors = outcomes.map((o) => o.error).sort((a, b) => a - b);
  const absolute = errors.map(Math.abs).sort((a, b) => a - b);
  const within = outcomes.filter((o) => o.within).length;
  return {
    quoted: outcomes.length,
    medianErrorMinutes: Math.round(percentile(errors, 0.5)!),
    medianAbsErrorMinutes: Math.round(percentile(absolute, 0.5)!),
    withinRange: Math.round((within / outcomes.length) * 1000) / 1000,
  };
}

/** The local calendar date of `now` at `tz` minutes east of UTC. */
function localDate(now: number, tz: number): string {
  return new Date(now + tz * MINUTE_MS).toISOString().slice(0, 10);
}

/**
 * A venue's day (local to `tz`): parties joined, seated, left, no-shows and removed, and the waits
 * of the parties seated that day (median, 90th percentile, median by the hour they joined), with
 * how the quotes they were given at join turned out, for the day and by hour. Works
 * on timings only, so it still counts after personal data is erased. With them, the messages sent
 * that day by channel and their SMS segments (docs/product.md §8, SMS cost).
 */
export async function getDayStats(
  deps: WaitlistDeps,
  venueId: string,
  query: HostStatsQuery,
  messagesKeptMs = Number.POSITIVE_INFINITY,
): Promise<HostStatsResponse> {
  await getVenue(deps.db.kysely, venueId);
  const tz = query.tz ?? 0;
  const date = query.date ?? localDate(deps.now(), tz);
  const from = Date.parse(`${date}T00:00:00Z`) - tz * MINUTE_MS;
  const to = from + DAY_MS;
  const inDay = (t: number | null): t is number => t !== null && t >= from && t < to;
  const rows = await listDayEntries(deps.db.kysely, venueId, from, to);

  const waits: number[] = [];
  const hours = new Map<number, number[]>();
  const quotes: QuoteOutcome[] = [];
  const quotesByHour = new Map<number, QuoteOutcome[]>();
  let joined = 0,
    left = 0,
    noShows = 0,
    removed = 0;
  for (const row of rows) {
    if (inDay(row.created_at)) joined += 1;
    if (row.status === 'seated' && inDay(row.seated_at)) {
      const wait = row.seated_at - row.created_at;
      waits.push(wait);
      const hour = Math.floor(((((row.created_at - from) % DAY_MS) + DAY_MS) % DAY_MS) / HOUR_MS);
      hours.set(hour, [...(hours.get(hour) ?? []), wait]);
      if (row.quoted_minutes !== null) {
        const minutes = wait / MINUTE_MS;
        const low = row.quoted_low ?? row.quoted_minutes;
        const high = row.quoted_high ?? row.quoted_minutes;
        // Whole minutes as the diner read them: "15-20 min" holds a wait of 20 min 40 s.
        const outcome = { error: minutes - row.quoted_minutes, within: minutes >= low && Math.floor(minutes) <= high };
        quotes.push(outcome);
        quotesByHour.set(hour, [...(quotesByHour.get(hour) ?? []), outcome]);
      }
    }
    if (row.status === 'cancelled' && inDay(row.cancelled_at)) {
      if (row.cancel_reason === 'NoShow') noShows += 1;
      else if (row.cancel_reason === 'Host' || row.cancel_reason === 'Removed') removed += 1;
      else left += 1;
    }
  }
  waits.sort((a, b) => a - b);
  const byHour = [...hours.entries()]
    .sort(([a], [b]) => a - b)
    .map(([hour, list]) => {
      const sorted = list.sort((a, b) => a - b);
      return {
        hour,
        seated: sorted.length,
        medianWaitMinutes: toMinutes(percentile(sorted, 0.5)) ?? 0,
        quotes: quoteAccuracyOf(quotesByHour.get(hour) ?? []),
      };
    });
  return {
    venueId,
    date,
    tz,
    joined,
    seated: waits.length,
    left,
    noShows,
    removed,
    medianWaitMinutes: toMinutes(percentile(waits, 0.5)),
    p90WaitMinutes: toMinutes(percentile(waits, 0.9)),
    quotes: quoteAccuracyOf(quotes),
    byHour,
    // Sent messages are deleted after RETENTION_HOURS: a day older than that would show too few.
    messages: from < deps.now() - messagesKeptMs ? null : await sentByChannel(deps.db.kysely, venueId, from, to),
  };
}
