// CPU time and memory of processes by pid, read from /proc (Linux), for benchmarks that measure
// processes they did not start themselves in-process: servers, nginx's workers, PostgreSQL, Redis.
import fs from 'node:fs';
import { cpuSecondsOf } from './load.js';

export { cpuSecondsOf };

/** A number of /proc/<pid>/status (its first word after `field:`), or undefined when the process is gone or /proc is missing. */
function statusNumberOf(pid: number | undefined, field: string): number | undefined {
  if (!pid) return undefined;
  try {
    const line = fs
      .readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${field}:`));
    return line ? Number(line.split(/\s+/)[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Resident memory in MB, or undefined when the process is gone or /proc is missing. */
export function rssMbOf(pid: number | undefined): number | undefined {
  const kb = statusNumberOf(pid, 'VmRSS');
  return kb === undefined ? undefined : kb / 1024;
}

/**
 * Times the process's main thread (the event loop, in Node) went to sleep waiting and was woken
 * (voluntary context switches, /proc/<pid>/status): a socket read, a timer, an fsync waited for.
 */
export const wakesOf = (pid: number | undefined): number | undefined => statusNumberOf(pid, 'voluntary_ctxt_switches');

/** Pids whose command name (/proc/<pid>/comm) passes the test, e.g. every `postgres` process. */
export function pidsByName(test: (comm: string) => boolean): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (test(fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim())) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Direct children of a process (nginx's workers of its master). */
export function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** CPU seconds of a group of processes together (those still there). */
export const cpuSecondsOfAll = (pids: number[]): number => pids.reduce((sum, pid) => sum + (cpuSecondsOf(pid) ?? 0), 0);

/** The whole machine: busy and total CPU seconds so far, over all cores (/proc/stat). */
export function machineCpu(): { busy: number; total: number } {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const f = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (f[3] ?? 0) + (f[4] ?? 0);
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: (total - idle) / 100, total: total / 100 };
}

/** The open-file limit of this process (and so of the processes it starts), from /proc/self/limits. */
export function openFileLimit(): number {
  try {
    const line = fs
      .readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = Number(line?.split(/\s{2,}/)[1]);
    return Number.isFinite(soft) ? soft : Infinity;
  } catch {
    return Infinity;
  }
}
