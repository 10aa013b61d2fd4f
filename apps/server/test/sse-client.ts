import { type SseMessage, createSseParser } from '@vez/contract';

/** Node 20 has no EventSource: a small reader over fetch for tests (and the bench's checks). */
export interface SseClient {
  status: number;
  /** Everything received so far, heartbeats included. */
  raw(): string;
  /** The next message (in arrival order) matching `match`; earlier non-matching ones are consumed. */
  next(match?: (m: SseMessage) => boolean): Promise<SseMessage>;
  close(): void;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const queue: SseMessage[] = [];
  const waiters: { match: (m: SseMessage) => boolean; resolve: (m: SseMessage) => void; reject: (e: Error) => void }[] = [];
  let text = '';
  let ended = false;
  const parse = createSseParser();
  const deliver = () => {
    while (waiters.length > 0) {
      const waiter = waiters[0]!;
      const index = queue.findIndex(waiter.match);
      if (index === -1) {
        if (ended) waiters.shift()!.reject(new Error('stream ended'));
        else return;
        continue;
      }
      const [message] = queue.splice(0, index + 1).slice(-1);
      waiters.shift()!.resolve(message!);
    }
  };
  if (res.ok && res.body) {
    const decoder = new TextDecoder();
    const reader = res.body.getReader();
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          const chunk = decoder.decode(value, { stream: true });
          text += chunk;
          queue.push(...parse(chunk));
          deliver();
        }
      } catch {
        // aborted by close()
      }
      ended = true;
      deliver();
    })();
  } else {
    text = await res.text();
    ended = true;
  }
  return {
    status: res.status,
    raw: () => text,
    next: (match = () => true) =>
      new Promise((resolve, reject) => {
        waiters.push({ match, resolve, reject });
        deliver();
      }),
    close: () => controller.abort(),
  };
}
