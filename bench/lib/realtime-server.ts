// The server side of bench/realtime.bench.ts, in a process of its own (forked with IPC and
// --expose-gc): the real app (buildApp, SQLite, in-process bus) plus, on a second port, a bare
// SSE broadcaster (plain node:http, no app) that writes one payload to every open connection:
// the baseline. Answers {cmd:'memory'} with memoryUsage() after a full GC.
import http from 'node:http';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { migrateToLatest, openDb } from '../../apps/server/src/db/connect.js';
import { type EventBus, createLocalBus } from '../../apps/server/src/plugins/bus.js';

const config = loadConfig({ ...process.env, HOST: '127.0.0.1', PORT: '0' });
const db = openDb(config.database);
await migrateToLatest(db);
// The in-process bus, noting when the change was handed to it (committed): the start of fan-out.
const now = () => performance.timeOrigin + performance.now();
let handedOffAt = 0;
const local = createLocalBus();
const bus: EventBus = {
  publish(event) {
    handedOffAt = now();
    local.publish(event);
  },
  subscribe: (venueId, listener) => local.subscribe(venueId, listener),
  close: () => local.close(),
};
const app = await buildApp({ config, db, bus });
await app.listen({ port: 0, host: '127.0.0.1', backlog: 4096 });

const bare = new Set<http.ServerResponse>();
let payload = '';
const bareServer = http.createServer((req, res) => {
  if (req.method === 'PUT' && req.url === '/payload') {
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => (body += c)).on('end', () => {
      payload = body;
      res.writeHead(204).end();
    });
    return;
  }
  if (req.method === 'POST' && req.url === '/broadcast') {
    handedOffAt = now();
    const frame = `event: position\ndata: ${payload}\n\n`;
    for (const client of bare) client.write(frame);
    res.writeHead(204).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write('retry: 3000\n\n');
  // The same kind of first message the app sends on connect.
  res.write(`event: position\ndata: ${payload}\n\n`);
  bare.add(res);
  res.on('close', () => bare.delete(res));
});
await new Promise<void>((resolve) => bareServer.listen(0, '127.0.0.1', 4096, resolve));

const gc = (globalThis as { gc?: () => void }).gc;
process.on('message', (message: { cmd: string }) => {
  if (message.cmd === 'memory') {
    gc?.();
    gc?.();
    process.send?.({ memory: process.memoryUsage() });
  } else if (message.cmd === 'handedOffAt') {
    process.send?.({ handedOffAt });
  } else if (message.cmd === 'stop') {
    bareServer.closeAllConnections();
    bareServer.close();
    void app.close().then(() => db.close()).then(() => process.exit(0));
  }
});
const appPort = (app.server.address() as { port: number }).port;
const barePort = (bareServer.address() as { port: number }).port;
process.send?.({ ready: true, appPort, barePort });
