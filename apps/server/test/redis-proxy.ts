import { type AddressInfo, type Server, type Socket, connect, createServer } from 'node:net';

/**
 * A TCP proxy in front of Redis, to lose a connection on purpose: a subscriber connection (the
 * one that sent SUBSCRIBE) dropped alone, or Redis out of reach for a while.
 */
export interface RedisProxy {
  /** The Redis URL through the proxy. */
  url: string;
  /** Ends the connections that subscribed (a subscriber's connection lost); the rest stay. */
  dropSubscribers(): void;
  /** While held, every new connection is refused at once (Redis out of reach); `drop` also ends the open ones. */
  hold(options?: { drop?: boolean }): void;
  release(): void;
  close(): Promise<void>;
}

export async function startRedisProxy(redisUrl: string): Promise<RedisProxy> {
  const target = new URL(redisUrl);
  const pairs = new Set<{ client: Socket; upstream: Socket; subscriber: boolean }>();
  let held = false;
  const server: Server = createServer((client) => {
    if (held) {
      client.destroy();
      return;
    }
    const upstream = connect(Number(target.port || 6379), target.hostname);
    const pair = { client, upstream, subscriber: false };
    pairs.add(pair);
    client.on('data', (chunk: Buffer) => {
      // RESP commands name themselves in plain text: a connection that asked to SUBSCRIBE is a subscriber.
      if (!pair.subscriber && /subscribe/i.test(chunk.toString('latin1'))) pair.subscriber = true;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const dropWhere = (which: (pair: { subscriber: boolean }) => boolean) => {
    for (const pair of [...pairs]) if (which(pair)) pair.client.destroy();
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    dropSubscribers: () => dropWhere((pair) => pair.subscriber),
    hold(options = {}) {
      held = true;
      if (options.drop) dropWhere(() => true);
    },
    release() {
      held = false;
    },
    async close() {
      dropWhere(() => true);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
