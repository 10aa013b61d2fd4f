import type { ServerResponse } from 'node:http';

/** A client this far behind is not reading; dropping it makes it reconnect to a fresh snapshot. */
const MAX_BUFFERED_BYTES = 256 * 1024;

/** One open text/event-stream response. Kept small: 10,000 of these live in one process. */
export class SseStream {
  closed = false;
  constructor(private readonly raw: ServerResponse) {}

  open(): void {
    this.raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // nginx and similar proxies would otherwise buffer the stream.
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
    });
    // A browser's EventSource waits this long before reconnecting.
    this.raw.write('retry: 3000\n\n');
  }

  /** `data` is already JSON (one line): serialised once per audience, not per connection. */
  send(event: string, data: string): void {
    this.write(`event: ${event}\ndata: ${data}\n\n`);
  }

  /** A message already framed (`event: …\ndata: …\n\n`), for pre-serialised templates. */
  sendFrame(frame: string): void {
    this.write(frame);
  }

  heartbeat(): void {
    this.write(': hb\n\n');
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    this.raw.end();
  }

  private write(text: string): void {
    if (this.closed) return;
    if (this.raw.writableLength > MAX_BUFFERED_BYTES) {
      this.closed = true;
      this.raw.destroy();
      return;
    }
    this.raw.write(text);
  }
}
