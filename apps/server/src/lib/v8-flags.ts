/**
 * Node's flags for a server process, on its command line (`npm run serve`, docs/deploy.md's
 * systemd unit; docs/decisions/056-no-memory-reducer.md, 057-fewer-objects-for-the-collector.md):
 * - `--no-memory-reducer`: V8's memory reducer shrinks a heap once allocation slows after a busy
 *   spell, as for a browser tab gone quiet. A server holding thousands of streams is "quiet" at a
 *   few changes a second, so each reducing collection marked its whole ~400 MB heap (about half a
 *   second of CPU, up to 116 ms of pauses) to give back memory the streams still held.
 * - `--max-semi-space-size=64`: a young generation four times Node's, collected four times less
 *   often; each collection walks the streams' old objects that point into it, whatever its size.
 * - `--v8-pool-size=1`: one helper thread for V8 (Node's default is four), so a major collection
 *   marks beside the event loop on one more core at most, instead of four threads taking every core
 *   of a small machine, or an instance's whole CPU quota, from the event loop
 *   (docs/decisions/057-fewer-objects-for-the-collector.md).
 * V8 and Node read them when they set the heap and V8's threads up: `v8.setFlagsFromString` later
 * has no effect.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--no-memory-reducer', '--max-semi-space-size=64', '--v8-pool-size=1'];

/** The flags of SERVER_NODE_FLAGS this process was started without (on its command line or in NODE_OPTIONS). */
export function missingServerFlags(
  execArgv: readonly string[] = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)],
): string[] {
  return SERVER_NODE_FLAGS.filter((flag) => !execArgv.includes(flag));
}
