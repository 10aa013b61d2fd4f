import autocannon, { type Options } from 'autocannon';
import type { LoadFigures } from './report.js';

/**
 * One autocannon run after a short warm-up (JIT, connection pools, SQLite page cache), reported as
 * requests per second (total answered / seconds, so a slow tail counts) and latency percentiles.
 */
export async function measureLoad(label: string, options: Options, warmupS = 2): Promise<LoadFigures> {
  if (warmupS > 0) await autocannon({ ...options, duration: warmupS });
  const result = await autocannon(options);
  const total = result['2xx'] + result.non2xx;
  return {
    label,
    requestsPerSec: total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total,
    non2xx: result.non2xx,
    errors: result.errors,
    connections: options.connections ?? 10,
    durationS: result.duration,
  };
}
