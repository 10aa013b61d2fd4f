// The client side of bench/realtime.bench.ts: many SSE connections over raw sockets (a browser's
// EventSource costs far more per connection than we could afford 10,000 times on this machine),
// in a process of its own. Each connection records when its first `event: position` arrives
// after {cmd:'arm'}; {cmd:'collect'} answers those times (epoch ms, sub-millisecond).
import net from 'node:net';

interface Conn {
  socket: net.Socket;
  messages: number;
  armedAt: number;
  receivedAt: number;
}
const conns: Conn[] = [];
let armed = false;
const MARK = 'event: position';
const now = () => performance.timeOrigin + performance.now();

function open(port: number, path: string): Promise<Conn> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    const conn: Conn = { socket, messages: 0, armedAt: 0, receivedAt: 0 };
    socket.setNoDelay(true);
    socket.on('connect', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`));
    socket.on('data', (chunk: Buffer) => {
      let from = chunk.indexOf(MARK);
      if (from === -1) return;
      if (armed && conn.receivedAt === 0) conn.receivedAt = now();
      while (from !== -1) {
        conn.messages += 1;
        from = chunk.indexOf(MARK, from + MARK.length);
      }
      if (conn.messages === 1) resolve(conn);
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error('closed before the first message')));
  });
}

async function connectAll(port: number, paths: string[], concurrency: number): Promise<{ connected: number; failed: number }> {
  let next = 0;
  let failed = 0;
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++]!;
      try {
        conns.push(await open(port, path));
      } catch {
        failed += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { connected: conns.length, failed };
}

async function collect(timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && conns.some((c) => c.receivedAt === 0)) await new Promise((r) => setTimeout(r, 20));
  return conns.map((c) => c.receivedAt);
}

process.on('message', (message: { cmd: string; port?: number; paths?: string[]; concurrency?: number; timeoutMs?: number }) => {
  void (async () => {
    if (message.cmd === 'connect') process.send?.(await connectAll(message.port!, message.paths!, message.concurrency ?? 200));
    else if (message.cmd === 'arm') {
      for (const c of conns) c.receivedAt = 0;
      armed = true;
      process.send?.({ armed: true });
    } else if (message.cmd === 'collect') {
      const times = await collect(message.timeoutMs ?? 10_000);
      armed = false;
      process.send?.({ times });
    } else if (message.cmd === 'close') {
      for (const c of conns) c.socket.destroy();
      conns.length = 0;
      process.send?.({ closed: true });
    }
  })();
});
process.send?.({ ready: true });
