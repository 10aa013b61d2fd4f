import fs from 'node:fs';
import autocannon, { type Options } from 'autocannon';
import type { LoadFigures } from './report.js';

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ: 100 on Linux). */
const TICKS_PER_S = 100;

/** CPU seconds (user + system) a process has used so far, or undefined off Linux. */
export function cpuSecondsOf(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), counted from field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S;
  } catch {
    return undefined;
  }
}

/**
 * One autocannon run after a short warm-up (JIT, connection pools, SQLite page cache), reported as
 * requests per second (total answered / seconds, so a slow tail counts) and latency percentiles.
 */
export async function measureLoad(label: string, options: Options, warmupS = 2, serverPid?: number): Promise<LoadFigures> {
  if (warmupS > 0) await autocannon({ ...options, duration: warmupS });
  const cpuBefore = cpuSecondsOf(serverPid);
  const result = await autocannon(options);
  const cpuAfter = cpuSecondsOf(serverPid);
  const total = result['2xx'] + result.non2xx;
  // The server's own CPU per answer: unlike req/s, it hardly moves when other work shares the machine.
  const serverCpuUsPerRequest =
    cpuBefore !== undefined && cpuAfter !== undefined && total > 0 ? ((cpuAfter - cpuBefore) * 1e6) / total : undefined;
  return {
    ...(serverCpuUsPerRequest !== undefined ? { serverCpuUsPerRequest } : {}),
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
