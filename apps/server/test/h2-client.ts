import http2 from 'node:http2';
import { createSseParser } from '@vez/contract';

/** What a browser gets through the guide's nginx over HTTP/2 (docs/deploy.md). */
export interface H2Answer {
  status: number;
  headers: http2.IncomingHttpHeaders;
  body: string;
}

/** A session to a test proxy with a throwaway certificate, once it is connected. */
export async function connectH2(base: string): Promise<http2.ClientHttp2Session> {
  const session = http2.connect(base, { rejectUnauthorized: false });
  await new Promise<void>((resolve, reject) => {
    session.once('connect', () => resolve());
    session.once('error', reject);
  });
  return session;
}

export function h2request(
  session: http2.ClientHttp2Session,
  method: string,
  url: string,
  body?: unknown,
  cookie?: string,
): Promise<H2Answer> {
  return new Promise((resolve, reject) => {
    const req = session.request({
      ':method': method,
      ':path': url,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(cookie ? { cookie } : {}),
    });
    let headers: http2.IncomingHttpHeaders = {};
    let text = '';
    req.setEncoding('utf8');
    req.on('response', (h) => (headers = h));
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve({ status: Number(headers[':status']), headers, body: text }));
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** A stream that ended, and when its next connection brought a message (undefined: not yet). */
export interface StreamCut {
  at: number;
  backAt?: number;
}

export interface H2EventSource {
  /** Connections that answered 200. */
  opens(): number;
  messages(): number;
  cuts(): readonly StreamCut[];
  /** Answers other than 200 and transport errors: a browser's EventSource would show them. */
  errors(): readonly string[];
  /** Resolves once a message arrived after every cut so far (and at least one message at all). */
  whenLive(timeoutMs: number): Promise<void>;
  close(): void;
}

/**
 * An EventSource as a browser keeps one (WHATWG HTML, "server-sent events"), over an HTTP/2 session
 * to the proxy: when a stream ends, it opens it again after the last `retry:` the server sent (3 s
 * until one is); an answer other than 200 fails it for good. Nothing else is retried.
 */
export function openH2EventSource(session: http2.ClientHttp2Session, path: string, headers: Record<string, string> = {}): H2EventSource {
  let retryMs = 3_000;
  let opens = 0;
  let messages = 0;
  let closed = false;
  let current: http2.ClientHttp2Stream | undefined;
  const cuts: StreamCut[] = [];
  const errors: string[] = [];
  const wakers = new Set<() => void>();
  const wake = () => {
    for (const w of wakers) w();
  };

  const connect = () => {
    if (closed) return;
    const req = session.request({ ':method': 'GET', ':path': path, accept: 'text/event-stream', ...headers });
    current = req;
    const parse = createSseParser();
    let lines = '';
    let failed = false;
    let first = true;
    req.setEncoding('utf8');
    req.on('response', (h) => {
      const status = Number(h[':status']);
      if (status === 200) opens += 1;
      else {
        failed = true;
        errors.push(`${path}: answered ${status}`);
        wake();
      }
    });
    req.on('data', (chunk: string) => {
      if (failed) return;
      lines += chunk;
      const complete = lines.lastIndexOf('\n');
      for (const m of lines.slice(0, complete + 1).matchAll(/^retry: *(\d+)$/gm)) retryMs = Number(m[1]);
      lines = lines.slice(complete + 1);
      const received = parse(chunk).length;
      if (received === 0) return;
      messages += received;
      if (first) {
        first = false;
        const cut = cuts.at(-1);
        if (cut && cut.backAt === undefined) cut.backAt = Date.now();
      }
      wake();
    });
    const reconnect = () => {
      if (closed || failed) return;
      cuts.push({ at: Date.now() });
      setTimeout(connect, retryMs);
    };
    req.on('end', reconnect);
    req.on('error', (error: Error) => {
      if (closed) return;
      errors.push(`${path}: ${error.message}`);
      wake();
      // A browser comes back after a network error too; the test counts the error all the same.
      reconnect();
    });
    req.end();
  };
  connect();

  return {
    opens: () => opens,
    messages: () => messages,
    cuts: () => cuts,
    errors: () => errors,
    async whenLive(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      const isLive = () => messages > 0 && cuts.every((c) => c.backAt !== undefined);
      while (!isLive()) {
        if (errors.length > 0) throw new Error(`stream ${path} failed: ${errors.join('; ')}`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`stream ${path} not live within ${timeoutMs} ms (${cuts.length} cuts, ${messages} messages)`);
        await new Promise<void>((resolve) => {
          const done = () => {
            wakers.delete(done);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(done, left);
          wakers.add(done);
        });
      }
    },
    close() {
      closed = true;
      current?.close();
    },
  };
}
