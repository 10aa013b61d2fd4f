import * as z from 'zod/mini';
import { VenueChannelEvent } from './events.js';
import { HostEntry, WaitlistState } from './host.js';
import { PositionResponse } from './waitlist.js';

/**
 * Server-Sent Events streams (docs/decisions/002-realtime-sse.md). Every (re)connect starts with
 * a fresh snapshot, so a reconnect loses nothing (no ids, no Last-Event-ID replay). Comment lines
 * (`: hb`) are heartbeats. Errors before the stream starts answer JSON (ApiErrorBody).
 */
export { StreamMessage, type StreamMessageName, dinerStreamPath, hostStreamPath } from './stream-names.js';

/** `event: position` data. Only this diner's entry: never another diner's name, phone or note. */
export const DinerStreamData = PositionResponse;
export type DinerStreamData = z.infer<typeof DinerStreamData>;

/** `event: queue` data. `events` is empty for the snapshot sent on (re)connect. */
export const HostStreamData = z.object({
  events: z.array(VenueChannelEvent),
  waitlist: WaitlistState,
  entries: z.array(HostEntry),
});
export type HostStreamData = z.infer<typeof HostStreamData>;

export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

/**
 * Splits a text/event-stream into messages (for clients without EventSource: tests, Node tools).
 * Feed it chunks; it returns the complete messages and keeps the rest. Comments are skipped.
 */
export function createSseParser(): (chunk: string) => SseMessage[] {
  let buffer = '';
  return (chunk) => {
    buffer += chunk.replace(/\r\n?/g, '\n');
    const out: SseMessage[] = [];
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const message: SseMessage = { event: 'message', data: '' };
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line === '' || line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') message.event = value;
        else if (field === 'data') data.push(value);
        else if (field === 'id') message.id = value;
      }
      if (data.length > 0) {
        message.data = data.join('\n');
        out.push(message);
      }
      end = buffer.indexOf('\n\n');
    }
    return out;
  };
}
