// The server side of bench/realtime.bench.ts, in a process of its own (forked with IPC and
// --expose-gc): the real app (buildApp, SQLite, in-process bus). The baseline, a bare broadcast,
// writes one payload straight to the sockets of the same open stream responses, framed as the
// app frames it, with nothing of the app in between: same process, same connections, same bytes. IPC: {cmd:'memory'} (after a full GC),
// {cmd:'cpu'}, {cmd:'arm'} then {cmd:'handedOffAt'} (when the round's change reached the bus, or the broadcast began),
// {cmd:'broadcast', payload, through?: 'response'}, {cmd:'variant', fanout} (the app's way of
// writing for the next rounds: the kept optimisations or a simpler way, docs/decisions/018-optimisations-that-pay.md), {cmd:'stop'}.
import type { ServerResponse } from 'node:http';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { migrateToLatest, openDb } from '../../apps/server/src/db/connect.js';
import { type EventBus, createLocalBus, forwardingBus } from '../../apps/server/src/plugins/bus.js';
import { type FanoutVariant, switchableFanout } from './fanout-variants.js';

const config = loadConfig({ ...process.env, HOST: '127.0.0.1', PORT: '0' });
const db = openDb(config.database);
await migrateToLatest(db);

// The in-process bus, noting when the round's change was handed to it (committed): the start of
// fan-out. That is the first event diner pages see after {cmd:'arm'}, not the last event: the
// change's after-commit work (the getting-close message, queue/getting-close.service.ts) publishes
// staff-only updates of its own, before or after the pages have theirs.
const now = () => performance.timeOrigin + performance.now();
let handedOffAt = 0;
let armed = false;
const local = createLocalBus();
const bus: EventBus = forwardingBus(local, (event) => {
  if (armed && !event.staffOnly) {
    armed = false;
    handedOffAt = now();
  }
  local.publish(event);
});
// Switched between rounds on the same open streams ({cmd:'variant'}); starts as the app ships.
const fanout: FanoutVariant = { responseWrites: false, stringifyEach: false };
const app = await buildApp({ config, db, bus, bench: { fanout: switchableFanout(fanout) } });
await app.listen({ port: 0, host: '127.0.0.1', backlog: 4096 });

const streams = new Set<ServerResponse>();
app.server.on('request', (req, res: ServerResponse) => {
  if (!req.url?.endsWith('/events')) return;
  streams.add(res);
  res.on('close', () => streams.delete(res));
});

const gc = (globalThis as { gc?: () => void }).gc;
process.on('message', (message: { cmd: string; payload?: string; through?: 'response'; fanout?: FanoutVariant }) => {
  if (message.cmd === 'memory') {
    gc?.();
    gc?.();
    process.send?.({ memory: process.memoryUsage(), streams: streams.size });
  } else if (message.cmd === 'cpu') {
    process.send?.({ cpu: process.cpuUsage() });
  } else if (message.cmd === 'arm') {
    armed = true;
    handedOffAt = 0;
    process.send?.({ armed });
  } else if (message.cmd === 'handedOffAt') {
    process.send?.({ handedOffAt });
  } else if (message.cmd === 'broadcast') {
    armed = false;
    handedOffAt = now();
    const text = `event: position\ndata: ${message.payload}\n\n`;
    if (message.through === 'response') {
      // For reference: through each ServerResponse, Node's HTTP layer framing the chunk.
      for (const res of streams) res.write(text);
    } else {
      // As the app's streams write (sse-stream.ts), one whole HTTP chunk straight to each socket, but
      // its bytes built once for all: the cheapest write of the same message, the stricter baseline.
      const frame = Buffer.from(text);
      const chunk = Buffer.concat([Buffer.from(`${frame.length.toString(16)}\r\n`), frame, Buffer.from('\r\n')]);
      for (const res of streams) res.socket?.write(chunk);
    }
    process.send?.({ sent: streams.size });
  } else if (message.cmd === 'variant') {
    Object.assign(fanout, message.fanout);
    process.send?.({ fanout });
  } else if (message.cmd === 'stop') {
    void app
      .close()
      .then(() => db.close())
      .then(() => process.exit(0));
  }
});
const appPort = (app.server.address() as { port: number }).port;
process.send?.({ ready: true, appPort });
