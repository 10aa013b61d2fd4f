import * as z from 'zod/mini';
import { isCalendarDate } from './plain-text.js';

/**
 * Undo of a seat or a removal (POST /api/host/venues/{venueId}/entries/{entryId}/restore): allowed
 * for this long after the entry ended, and only for staff actions (never a diner's own leave).
 */
export const RESTORE_WINDOW_MS = 60_000;

/** GET /api/host/venues/{venueId}/stats?date=YYYY-MM-DD&tz=<minutes east of UTC> */
export const HostStatsQuery = z.object({
  date: z.optional(z.string().check(z.refine(isCalendarDate, { error: 'date must be a real date, YYYY-MM-DD.' }))),
  tz: z.optional(
    z.coerce.number().check(z.gte(-840), z.lte(840), z.refine(Number.isInteger, { error: 'tz is whole minutes east of UTC.' })),
  ),
});
export type HostStatsQuery = z.infer<typeof HostStatsQuery>;

/** How the quotes given at join turned out for the parties seated: whole minutes and a share. */
export const QuoteAccuracy = z.object({
  /** Seated parties that were quoted a wait at join. */
  quoted: z.number(),
  /** Median of (actual wait - quoted wait): positive when waits ran longer than quoted. */
  medianErrorMinutes: z.number(),
  /** Median of the absolute error. */
  medianAbsErrorMinutes: z.number(),
  /** Share (0-1) seated within the quoted range. */
  withinRange: z.number(),
});
export type QuoteAccuracy = z.infer<typeof QuoteAccuracy>;

/** Waits of the parties seated in one local hour (by the hour they joined). */
export const HostStatsHour = z.object({
  hour: z.number(),
  seated: z.number(),
  /** Median wait of those parties, whole minutes. */
  medianWaitMinutes: z.number(),
  /** Quoted against actual (docs/product.md §4) for those of them that were quoted; null when none was. */
  quotes: z.nullable(QuoteAccuracy),
});
export type HostStatsHour = z.infer<typeof HostStatsHour>;

/** Messages sent on a day about a venue's parties, on one channel (docs/product.md §8, SMS cost). */
export const MessageChannelFigure = z.object({
  channel: z.enum(['sms', 'whatsapp', 'push', 'email']),
  sent: z.number(),
  /** SMS segments those messages cost (GSM-7 160, UCS-2 70 a segment); null where a channel is not billed by segment. */
  segments: z.nullable(z.number()),
});
export type MessageChannelFigure = z.infer<typeof MessageChannelFigure>;

/** Today's figures of a venue: counts of the day and waits of the parties seated that day. */
export const HostStatsResponse = z.object({
  venueId: z.string(),
  date: z.string(),
  tz: z.number(),
  joined: z.number(),
  seated: z.number(),
  /** Diners who left the list themselves. */
  left: z.number(),
  noShows: z.number(),
  /** Taken off by staff (reasons Host and Removed). */
  removed: z.number(),
  /** Null when nobody was seated yet. */
  medianWaitMinutes: z.nullable(z.number()),
  p90WaitMinutes: z.nullable(z.number()),
  /** Quoted against actual waits of the day; null when no seated party was quoted. */
  quotes: z.nullable(QuoteAccuracy),
  byHour: z.array(HostStatsHour),
  /**
   * Messages sent that day by channel: sms, whatsapp, push, email, always in that order. Null for
   * a day that began longer ago than messages are kept (RETENTION_HOURS): its figures are gone.
   */
  messages: z.nullable(z.array(MessageChannelFigure)),
});
export type HostStatsResponse = z.infer<typeof HostStatsResponse>;
