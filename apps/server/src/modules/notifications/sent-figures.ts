import type { MessageChannelFigure } from '@vez/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { countSentAboutVenue } from './messages.repository.js';

/**
 * What a venue's messages cost in [from, to) (docs/product.md §8, SMS cost): messages sent by channel,
 * and the segments of the SMS (WhatsApp, push and email are not billed by segment). Every channel
 * is listed, in the same order, even at zero.
 */
export async function sentByChannel(db: Kysely<Database>, venueId: string, from: number, to: number): Promise<MessageChannelFigure[]> {
  const rows = await countSentAboutVenue(db, venueId, from, to);
  const of = (match: (r: (typeof rows)[number]) => boolean) => rows.filter(match).reduce((n, r) => n + r.sent, 0);
  return [
    {
      channel: 'sms',
      sent: of((r) => r.channel === 'sms' && !r.whatsapp),
      segments: rows.filter((r) => r.channel === 'sms' && !r.whatsapp).reduce((n, r) => n + r.segments, 0),
    },
    { channel: 'whatsapp', sent: of((r) => r.channel === 'sms' && r.whatsapp), segments: null },
    { channel: 'push', sent: of((r) => r.channel === 'push'), segments: null },
    { channel: 'email', sent: of((r) => r.channel === 'email'), segments: null },
  ];
}
