import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SseStream } from './sse-stream.js';

/**
 * An open stream keeps no more of its response than it needs (docs/decisions/057-fewer-objects-for-the-collector.md):
 * once the head is sent, Node's map of the headers goes, and the stream still writes and ends.
 */
describe('an SSE stream once its head is sent', () => {
  let server: http.Server;
  let opened: (res: http.ServerResponse, stream: SseStream) => void;
  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      // As the app's security headers are set before a stream's own (plugins/security.ts).
      res.setHeader('x-frame-options', 'DENY');
      const stream = new SseStream(res);
      stream.open();
      opened(res, stream);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('forgets the headers it sent, and the client has them all; messages and the end still go', async () => {
    const served = new Promise<{ res: http.ServerResponse; stream: SseStream }>(
      (resolve) => (opened = (res, stream) => resolve({ res, stream })),
    );
    const response = new Promise<http.IncomingMessage>((resolve) =>
      http.get(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, resolve),
    );
    const { res, stream } = await served;
    const map = Object.getOwnPropertySymbols(res).find((symbol) => symbol.description === 'kOutHeaders');
    expect(map).toBeDefined();
    expect((res as unknown as Record<symbol, unknown>)[map!]).toBeNull();
    expect(res.getHeaders()).toEqual({});
    expect(res.getHeader('content-type')).toBeUndefined();

    const client = await response;
    expect(client.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(client.headers['x-frame-options']).toBe('DENY');
    expect(client.headers['cache-control']).toBe('no-store, no-transform');
    let body = '';
    client.setEncoding('utf8');
    client.on('data', (chunk: string) => (body += chunk));
    const ended = new Promise((resolve) => client.on('end', resolve));
    stream.send('position', '{"position":2}');
    stream.end();
    await ended;
    expect(body).toBe('retry: 3000\n\nevent: position\ndata: {"position":2}\n\n');
  });
});
