// The screens of bench/capacity.bench.ts, in a process of their own (several run: one process may
// hold at most 20,000 open files, and each holds a few thousand sockets): diner pages and host
// consoles as raw HTTP/1.1 SSE connections (a browser's EventSource costs far more per connection
// than this machine could afford 20,000 times). Each connection decodes the chunked body and
// splits it into SSE messages, so a message counts when its last byte has arrived, wherever a
// proxy cut the chunks.
//
// IPC, from the load generator:
//   {cmd:'connect', port, streams:[{venue, path, cookie?}], concurrency} -> {connected, failed, errors}
//   {cmd:'arm', id, venue, t0}   a change to `venue` was sent at t0 (epoch ms)
//   {cmd:'answered', id}         its HTTP answer came back: answers {done:id, at} once every open
//                                console of the venue has received a message after t0 and one turn
//                                of this process's event loop has passed since the answer (at: when
//                                the last message of any screen of the venue arrived; null: none).
//                                Diner pages are written when their message changes
//                                (docs/decisions/066-pages-written-when-they-change.md): which of
//                                them a change reaches is not known here. The hub writes them in
//                                one walk, then the consoles: waiting for the consoles waits for
//                                them. At a venue without a console it waits for the answer and
//                                a turn: on SQLite the refresh writes within a turn or two of the
//                                answer, on PostgreSQL it reads the store first and may write
//                                later; a page's message that comes after is not in the change's
//                                latency (an undercount at those venues).
//   {cmd:'disarm', id}           the change failed: stop waiting for it
//   {cmd:'stats'}                -> {stats:{messages, bytes, dropped, screens, heartbeatRounds, cpu}}
//   {cmd:'close'}                -> {closed:true}
// A diner screen counts any `position` message; a host screen counts a `queue` message whose events
// name a change diners see too (not the snapshot on connect, not staff-only updates such as a
// message's delivery), so messages of other kinds never pass for the change's.
import net from 'node:net';

const now = () => performance.timeOrigin + performance.now();
const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');
const NLNL = Buffer.from('\n\n');
/** Bytes of a message kept to classify it: the event name, and for hosts the events array at the start of the data. */
const DINER_HEAD = 48;
const HOST_HEAD = 16 * 1024;

interface Pending {
  id: number;
  t0: number;
  /** Consoles still to receive the change's message. */
  remaining: number;
  maxAt: number;
  /** The answer came back and a turn of the event loop passed since. */
  answered: boolean;
}

interface Venue {
  screens: Screen[];
  pending: Pending | undefined;
}

interface Screen {
  venue: Venue;
  host: boolean;
  socket: net.Socket;
  alive: boolean;
  /** When the last counted message arrived (0: none yet). */
  lastAt: number;
  // HTTP parsing
  state: 'head' | 'size' | 'data' | 'trailer' | 'identity';
  carry: Buffer | undefined;
  left: number;
  status: number;
  // SSE parsing
  prevNewline: boolean;
  head: Buffer[];
  headLength: number;
  onFirst: ((ok: boolean, why?: string) => void) | undefined;
}

const venues = new Map<number, Venue>();
let messages = 0;
let bytes = 0;
let dropped = 0;
const heartbeatRounds: number[] = [];
let lastHeartbeat = 0;

function venueOf(index: number): Venue {
  let v = venues.get(index);
  if (!v) venues.set(index, (v = { screens: [], pending: undefined }));
  return v;
}

function classify(s: Screen, text: string): boolean {
  const at = text.indexOf('event: ');
  if (at === -1) return false;
  if (!s.host) return text.startsWith('position\n', at + 7);
  if (!text.startsWith('queue\n', at + 7)) return false;
  // data: {"events":[...],"waitlist":...: the events that made this refresh.
  const open = text.indexOf('{"events":[', at);
  if (open === -1) return false;
  const from = open + 11;
  if (text[from] === ']') return false; // the snapshot of a (re)connect
  const close = text.indexOf('],"waitlist"', from);
  const events = close === -1 ? text.slice(from) : text.slice(from, close);
  const all = events.split('"type":').length - 1;
  const staffOnly = events.split('"staffOnly":true').length - 1;
  return all > staffOnly;
}

function endMessage(s: Screen, at: number): void {
  if (s.headLength === 0) return;
  const text = (s.head.length === 1 ? s.head[0]! : Buffer.concat(s.head)).toString('latin1');
  s.head = [];
  s.headLength = 0;
  if (text.charCodeAt(0) === 58 /* ':' */) {
    // A heartbeat (`: hb`): note when each round of them began, to line slow changes up with them.
    if (at - lastHeartbeat > 1000) heartbeatRounds.push(at);
    lastHeartbeat = at;
    return;
  }
  if (!classify(s, text)) {
    // The first message of a host is its snapshot: connected all the same.
    if (s.onFirst && s.host && text.includes('event: queue')) s.onFirst(true);
    return;
  }
  messages += 1;
  if (s.onFirst) s.onFirst(true);
  const before = s.lastAt;
  s.lastAt = at;
  const p = s.venue.pending;
  if (p && before < p.t0 && at >= p.t0) settle(s.venue, p, at, s.host ? 1 : 0);
}

function settle(v: Venue, p: Pending, at: number, consoles: number): void {
  p.remaining -= consoles;
  if (at > p.maxAt) p.maxAt = at;
  if (p.remaining <= 0 && p.answered) {
    v.pending = undefined;
    process.send?.({ done: p.id, at: p.maxAt === 0 ? null : p.maxAt });
  }
}

function appendHead(s: Screen, piece: Buffer): void {
  const cap = s.host ? HOST_HEAD : DINER_HEAD;
  if (s.headLength >= cap || piece.length === 0) return;
  const part = piece.length > cap - s.headLength ? piece.subarray(0, cap - s.headLength) : piece;
  // Copied: the socket's buffer is reused by nothing, but a small copy keeps big chunks collectable.
  s.head.push(Buffer.from(part));
  s.headLength += part.length;
}

/** Decoded body bytes: split into SSE messages at blank lines. */
function feedSse(s: Screen, piece: Buffer, at: number): void {
  let start = 0;
  if (s.prevNewline && piece.length > 0 && piece[0] === 10) {
    endMessage(s, at);
    start = 1;
  }
  for (;;) {
    const i = piece.indexOf(NLNL, start);
    if (i === -1) {
      appendHead(s, piece.subarray(start));
      s.prevNewline = piece.length > start && piece[piece.length - 1] === 10;
      return;
    }
    appendHead(s, piece.subarray(start, i + 1));
    endMessage(s, at);
    start = i + 2;
  }
}

/** Raw socket bytes: the response head, then the chunked body (or an unframed one). */
function feedHttp(s: Screen, chunk: Buffer): void {
  const at = now();
  bytes += chunk.length;
  const buf = s.carry ? Buffer.concat([s.carry, chunk]) : chunk;
  s.carry = undefined;
  let i = 0;
  while (i < buf.length) {
    if (s.state === 'head') {
      const end = buf.indexOf(HEAD_END, i);
      if (end === -1) {
        s.carry = buf.subarray(i);
        return;
      }
      const head = buf.subarray(i, end).toString('latin1');
      s.status = Number(head.slice(9, 12));
      if (s.status !== 200) {
        s.onFirst?.(false, `HTTP ${s.status}`);
        s.socket.destroy();
        return;
      }
      s.state = /\r\ntransfer-encoding:\s*chunked/i.test(head) ? 'size' : 'identity';
      i = end + 4;
    } else if (s.state === 'size') {
      const end = buf.indexOf(CRLF, i);
      if (end === -1) {
        s.carry = buf.subarray(i);
        return;
      }
      s.left = parseInt(buf.subarray(i, end).toString('latin1'), 16);
      i = end + 2;
      if (s.left === 0) {
        s.state = 'trailer';
        continue;
      }
      s.state = 'data';
    } else if (s.state === 'data') {
      const take = Math.min(s.left, buf.length - i);
      feedSse(s, buf.subarray(i, i + take), at);
      s.left -= take;
      i += take;
      if (s.left === 0) s.state = 'trailer';
    } else if (s.state === 'trailer') {
      // The CRLF after a chunk's data.
      if (buf.length - i < 2) {
        s.carry = buf.subarray(i);
        return;
      }
      i += 2;
      s.state = 'size';
    } else {
      feedSse(s, buf.subarray(i), at);
      return;
    }
  }
}

function open(port: number, venueIndex: number, path: string, cookie: string | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    const venue = venueOf(venueIndex);
    const s: Screen = {
      venue,
      host: cookie !== undefined,
      socket,
      alive: false,
      lastAt: 0,
      state: 'head',
      carry: undefined,
      left: 0,
      status: 0,
      prevNewline: false,
      head: [],
      headLength: 0,
      onFirst: undefined,
    };
    s.onFirst = (ok, why) => {
      s.onFirst = undefined;
      if (!ok) return reject(new Error(why));
      s.alive = true;
      venue.screens.push(s);
      resolve();
    };
    socket.setNoDelay(true);
    socket.on('connect', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n${cookie ? `Cookie: ${cookie}\r\n` : ''}\r\n`),
    );
    socket.on('data', (chunk: Buffer) => feedHttp(s, chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (s.onFirst) return s.onFirst(false, 'closed before the first message');
      if (!s.alive) return;
      s.alive = false;
      dropped += 1;
      // A dropped screen will not receive: the change is settled without it, and the drop is reported.
      const p = venue.pending;
      if (p && s.lastAt < p.t0) settle(venue, p, p.maxAt, s.host ? 1 : 0);
    });
  });
}

async function connectAll(
  port: number,
  streams: { venue: number; path: string; cookie?: string }[],
  concurrency: number,
): Promise<{ connected: number; failed: number; errors: string[] }> {
  let next = 0;
  let connected = 0;
  let failed = 0;
  const errors = new Set<string>();
  const worker = async () => {
    while (next < streams.length) {
      const { venue, path, cookie } = streams[next++]!;
      try {
        await open(port, venue, path, cookie);
        connected += 1;
      } catch (error) {
        failed += 1;
        errors.add(error instanceof Error ? error.message : String(error));
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { connected, failed, errors: [...errors].slice(0, 5) };
}

function arm(id: number, venueIndex: number, t0: number): void {
  const v = venueOf(venueIndex);
  let remaining = 0;
  let maxAt = 0;
  for (const s of v.screens) {
    if (!s.alive) continue;
    if (s.lastAt >= t0) maxAt = Math.max(maxAt, s.lastAt);
    else if (s.host) remaining += 1;
  }
  v.pending = { id, t0, remaining, maxAt, answered: false };
}

function answered(id: number): void {
  // One turn: what the server wrote before its answer, already in this process's sockets, is read first.
  setImmediate(() => {
    for (const v of venues.values())
      if (v.pending?.id === id) {
        v.pending.answered = true;
        settle(v, v.pending, v.pending.maxAt, 0);
      }
  });
}

process.on(
  'message',
  (message: {
    cmd: string;
    port?: number;
    streams?: { venue: number; path: string; cookie?: string }[];
    concurrency?: number;
    id?: number;
    venue?: number;
    t0?: number;
  }) => {
    if (message.cmd === 'arm') arm(message.id!, message.venue!, message.t0!);
    else if (message.cmd === 'answered') answered(message.id!);
    else if (message.cmd === 'disarm') {
      for (const v of venues.values()) if (v.pending?.id === message.id) v.pending = undefined;
    } else if (message.cmd === 'connect')
      void connectAll(message.port!, message.streams!, message.concurrency ?? 100).then((r) => process.send?.(r));
    else if (message.cmd === 'stats') {
      let screens = 0;
      for (const v of venues.values()) for (const s of v.screens) if (s.alive) screens += 1;
      process.send?.({ stats: { messages, bytes, dropped, screens, heartbeatRounds, cpu: process.cpuUsage() } });
    } else if (message.cmd === 'close') {
      for (const v of venues.values()) for (const s of v.screens) s.socket.destroy();
      venues.clear();
      process.send?.({ closed: true });
    }
  },
);
process.send?.({ ready: true });
