import type { ServerResponse } from 'node:http';
import { flatString } from '../../lib/flat-string.js';
import { type FanoutStrategy, productionFanout } from './fanout.js';

/** Node's symbol for a response's header map (`OutgoingMessage[kOutHeaders]`), found on the first response; null: not there. */
let outHeaders: symbol | null | undefined;

/**
 * Forgets the header map of a response whose head is sent (docs/decisions/057-fewer-objects-for-the-collector.md).
 * Node reads it only to answer getHeader()/getHeaders()/hasHeader(), each of which takes null for "none".
 */
function dropSentHeaders(raw: ServerResponse): void {
  if (!raw.headersSent) return;
  outHeaders ??= Object.getOwnPropertySymbols(raw).find((symbol) => symbol.description === 'kOutHeaders') ?? null;
  if (outHeaders) (raw as unknown as Record<symbol, unknown>)[outHeaders] = null;
}

/** A client this far behind is not reading; dropping it makes it reconnect to a fresh snapshot. */
const MAX_BUFFERED_BYTES = 256 * 1024;

/** One open text/event-stream response. Kept small: 10,000 of these live in one process. */
export class SseStream {
  closed = false;
  constructor(
    private readonly raw: ServerResponse,
    /** How it writes (fanout.ts): whole chunks to the socket unless bench/ injects res.write. */
    private readonly fanout: Pick<FanoutStrategy, 'responseWrites'> = productionFanout,
  ) {}

  open(): void {
    this.raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      // A diner's place or the venue's queue: personal data, never stored by a cache (docs/security.md).
      'cache-control': 'no-store, no-transform',
      connection: 'keep-alive',
      // nginx and similar proxies would otherwise buffer the stream.
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
    });
    // A browser's EventSource waits this long before reconnecting.
    this.raw.write('retry: 3000\n\n');
    // Node keeps the head it sent for the response's life as it built it, a rope of ~70 V8 cons
    // strings (one per piece of each header line): at 20,000 streams a quarter of the heap's objects,
    // each marked by every major collection (docs/decisions/057-fewer-objects-for-the-collector.md).
    // The same text, flat, is one object.
    const head = this.raw as unknown as { _header?: unknown };
    if (typeof head._header === 'string') head._header = flatString(head._header);
    // Node also keeps the headers themselves once sent, for getHeader(): a [name, value] array per
    // header (the security headers too), ~30 objects a stream (measured: 3.95 -> 3.29 million at
    // 20,000 streams) that nothing reads again. The head is out; the map goes.
    dropSentHeaders(this.raw);
  }

  /** `data` is already JSON (one line): serialised once per audience, not per connection. */
  send(event: string, data: string): void {
    this.write(`event: ${event}\ndata: ${data}\n\n`);
  }

  /** A message already framed (`event: …\ndata: …\n\n`), for pre-serialised templates. */
  sendFrame(frame: string): void {
    this.write(frame);
  }

  /** The socket to write whole chunks to, once the head is out and the body is chunked; else null. */
  private chunkSocket() {
    if (this.fanout.responseWrites) return null;
    const socket = this.raw.socket;
    return socket !== null && this.raw.headersSent && this.raw.chunkedEncoding ? socket : null;
  }

  private isBehind(buffered: number): boolean {
    if (buffered <= MAX_BUFFERED_BYTES) return false;
    this.closed = true;
    this.raw.destroy();
    return true;
  }

  heartbeat(): void {
    this.write(': hb\n\n');
  }

  /**
   * Ends the stream, asking the browser to come back after `retryMs` (docs/product.md §9): an
   * instance that shuts down hands its streams over, and behind a proxy they reconnect elsewhere.
   */
  handOver(retryMs: number): void {
    this.write(`retry: ${Math.round(retryMs)}\n\n`);
    this.end();
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    this.raw.end();
  }

  /**
   * Once the head is out, each message goes to the socket as one whole HTTP chunk, framed here.
   * Through the response, every write would also cork the socket until the next tick: a fan-out
   * to 10,000 streams would send nothing until the last message was built, then all at once.
   * Written straight, the first streams have their message while the rest are being built. Both
   * paths go through the socket's one write buffer, so messages keep their order either way.
   */
  private write(text: string): void {
    if (this.closed) return;
    const socket = this.chunkSocket();
    if (this.isBehind(socket ? socket.writableLength : this.raw.writableLength)) return;
    if (socket) socket.write(`${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`);
    else this.raw.write(text);
  }
}
