import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, createBody } from './fixtures.js';
import { type ServerProcess, startServerProcess } from './server-process.js';
import { openSse } from './sse-client.js';

/** A raw HTTP/1.1 connection: what a proxy or a phone keeps open between requests. */
function rawConnection(url: string) {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  let received = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => {
    received += chunk;
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return {
    socket,
    closed,
    received: () => received,
    async until(text: string): Promise<void> {
      while (!received.includes(text)) await new Promise((r) => setTimeout(r, 20));
    },
  };
}

/**
 * docs/product.md §9: on SIGTERM the server stops accepting, hands its streams over, lets requests in
 * flight finish (their answers are kept), and exits by itself, even with connections left open.
 */
describe('SIGTERM', () => {
  let dir: string;
  let server: ServerProcess;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'vez-shutdown-'));
    env = { DATABASE_URL: `file:${path.join(dir, 'vez.db')}`, REDIS_URL: '', MESSAGE_WORKER: '0' };
    // Its log says when a request has started and when the signal was taken (untilLogged).
    server = await startServerProcess({ ...env, LOG_LEVEL: 'info' });
  }, 60_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('a join in flight is answered and kept, streams are told to come back soon, and the process exits 0 with a keep-alive connection open', async () => {
    const joined = await fetch(`${server.url}/api/waitlists/${DEMO_BISTRO_ID}/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(createBody()),
    });
    expect(joined.status).toBe(201);
    const stream = await openSse(`${server.url}/api/waitlists/${(await joined.json())._id}/events`);
    await stream.next();

    // A join whose body is still arriving when the signal comes.
    const body = JSON.stringify(createBody());
    const inFlight = rawConnection(server.url);
    const started = server.untilLogged(/\/create".*"msg":"incoming request"/);
    inFlight.socket.write(
      `POST /api/waitlists/${DEMO_BISTRO_ID}/create HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
    );
    await started;
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
    const signalTaken = server.untilLogged(/"msg":"shutting down"/);
    server.child.kill('SIGTERM');
    await signalTaken;
    inFlight.socket.write(body.slice(10));
    await inFlight.until('"_id"');
    expect(inFlight.received()).toMatch(/^HTTP\/1\.1 201/);
    const id = /"_id":"([^"]+)"/.exec(inFlight.received())![1]!;

    // The open stream ended with a sooner retry than the usual 3 s: its browser comes back (elsewhere) at once.
    await expect(stream.next()).rejects.toThrow('stream ended');
    const retry = [...stream.raw().matchAll(/retry: (\d+)/g)].map((m) => Number(m[1]));
    expect(retry[0]).toBe(3000);
    expect(retry.at(-1)).toBeLessThan(3000);

    // The connection the join came on stays open on the client's side; the server still exits, cleanly.
    expect(await exited).toBe(0);
    await inFlight.closed;

    server = await startServerProcess(env);
    expect((await fetch(`${server.url}/api/waitlists/${id}/position`)).status).toBe(200);
  }, 60_000);

  it('never closes a keep-alive connection under its client: a join written on one that was idle at the signal is answered, with Connection: close (docs/deploy.md, "Restarting without an error")', async () => {
    // What a proxy keeps between requests: one answered, then idle.
    const kept = rawConnection(server.url);
    kept.socket.write('GET /api/health/live HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n');
    await kept.until('{"status":"ok"}');
    let isClosed = false;
    void kept.closed.then(() => (isClosed = true));

    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
    server.child.kill('SIGTERM');
    // Draining: readiness fails on a new connection (or, where the connection was dropped, nothing to wait for).
    while (!isClosed) {
      const ready = await fetch(`${server.url}/api/health`).catch(() => undefined);
      if (ready?.status === 503) break;
    }

    // The proxy sends its next request on the connection it kept.
    const body = JSON.stringify(createBody());
    kept.socket.write(
      `POST /api/waitlists/${DEMO_BISTRO_ID}/create HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await kept.closed;
    const answers = kept.received().split(/(?=HTTP\/1\.1 )/);
    expect(answers).toHaveLength(2);
    expect(answers[1]).toMatch(/^HTTP\/1\.1 201/);
    expect(answers[1]).toMatch(/\r\nconnection: close\r\n/i);
    expect(await exited).toBe(0);

    server = await startServerProcess(env);
    const id = /"_id":"([^"]+)"/.exec(answers[1]!)![1]!;
    expect((await fetch(`${server.url}/api/waitlists/${id}/position`)).status).toBe(200);
  }, 60_000);
});
