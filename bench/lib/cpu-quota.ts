// A CPU quota for one process, as a container's CPU limit gives an instance (docs/deploy.md,
// "Capacity"): the Linux CFS bandwidth control of a cgroup of its own, v1 (`cpu.cfs_quota_us`) or
// v2 (`cpu.max`). bench/capacity.bench.ts runs instances of a fixed size with it, so that one and two
// instances compare as instances, not as shares of whatever this machine has left.
import fs from 'node:fs';
import path from 'node:path';

/** A short period: a throttled process waits at most the rest of 10 ms, not of the default 100 ms. */
const PERIOD_US = 10_000;
const V1 = '/sys/fs/cgroup/cpu';
const V2 = '/sys/fs/cgroup';

export interface CpuQuota {
  /** Why quotas cannot be set here; undefined when they can. */
  unavailable: string | undefined;
  /** Puts the process (all its threads) in a group of its own with `cores` of CPU; answers the cleanup. */
  limit(pid: number, cores: number): () => void;
}

let made = 0;

export function cpuQuota(): CpuQuota {
  const v1 = fs.existsSync(path.join(V1, 'cpu.cfs_quota_us'));
  const v2 = !v1 && fs.existsSync(path.join(V2, 'cgroup.controllers')) && /\bcpu\b/.test(read(path.join(V2, 'cgroup.subtree_control')));
  const root = v1 ? V1 : v2 ? V2 : undefined;
  let unavailable = root ? undefined : 'no cgroup CPU controller (v1 cpu.cfs_quota_us or v2 cpu.max) here';
  if (root) {
    // Try once: the directory may be read-only (no CAP_SYS_ADMIN in a container).
    const probe = path.join(root, `vez-bench-probe-${process.pid}`);
    try {
      fs.mkdirSync(probe);
      fs.rmdirSync(probe);
    } catch (error) {
      unavailable = `cannot make a cgroup under ${root}: ${(error as Error).message}`;
    }
  }
  return {
    unavailable,
    limit(pid, cores) {
      if (!root || unavailable) throw new Error(unavailable);
      const dir = path.join(root, `vez-bench-${process.pid}-${++made}`);
      fs.mkdirSync(dir);
      const quota = Math.max(1000, Math.round(cores * PERIOD_US));
      if (v1) {
        fs.writeFileSync(path.join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
        fs.writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), String(quota));
      } else fs.writeFileSync(path.join(dir, 'cpu.max'), `${quota} ${PERIOD_US}`);
      fs.writeFileSync(path.join(dir, 'cgroup.procs'), String(pid));
      return () => {
        // Empty once the process has exited; a group still in use stays (and is harmless).
        try {
          fs.rmdirSync(dir);
        } catch {
          // still in use
        }
      };
    },
  };
}

/** Throttled periods and time so far, from the group's cpu.stat (how often the quota bit). */
export function throttledOf(pid: number): { periods: number; throttled: number } | undefined {
  try {
    const group = fs
      .readFileSync(`/proc/${pid}/cgroup`, 'utf8')
      .split('\n')
      .map((l) => l.split(':'))
      .find((p) => (p[1] ?? '').split(',').includes('cpu') || (p[0] === '0' && p[1] === ''))?.[2];
    if (!group) return undefined;
    const stat = read(path.join(fs.existsSync(path.join(V1, 'cpu.cfs_quota_us')) ? V1 : V2, group, 'cpu.stat'));
    const field = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(stat)?.[1] ?? NaN);
    return { periods: field('nr_periods'), throttled: field('nr_throttled') };
  } catch {
    return undefined;
  }
}

function read(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
