// Self time per function (and time inside each function of the server, callees included) of a
// `node --cpu-prof` profile: what a change or a join spends where (bench/lib/profile-join.ts).
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

const short = (url: string) => url.replace(/^.*\/(node_modules)\//, '$1/').replace(/^.*\/(apps|bench|packages)\//, '$1/');

/** Prints the top `n` functions by self time and, for the server's own code, by time inside; `per` divides into µs per request. */
export function summarise(file: string, n = 30, per = 0): void {
  const prof = JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(prof.nodes.map((x) => [x.id, x]));
  const parent = new Map<number, number>();
  for (const x of prof.nodes) for (const c of x.children ?? []) parent.set(c, x.id);
  const self = new Map<string, number>();
  const inside = new Map<string, number>();
  let total = 0;
  let idle = 0;
  prof.samples.forEach((sample, i) => {
    const d = prof.timeDeltas[i] ?? 0;
    const node = byId.get(sample)!;
    const cf = node.callFrame;
    if (cf.functionName === '(idle)') idle += d;
    total += d;
    const key = `${cf.functionName || '(anonymous)'} ${short(cf.url)}:${cf.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + d);
    const seen = new Set<string>();
    for (let id: number | undefined = sample; id !== undefined; id = parent.get(id)) {
      const f = byId.get(id)!.callFrame;
      if (!f.url.includes('/apps/server/src/')) continue;
      const k = `${f.functionName || '(anonymous)'} ${short(f.url)}:${f.lineNumber + 1}`;
      if (seen.has(k)) continue;
      seen.add(k);
      inside.set(k, (inside.get(k) ?? 0) + d);
    }
  });
  const busy = total - idle;
  const line = ([k, v]: [string, number]) =>
    `${(v / 1000).toFixed(1).padStart(9)} ms ${((v / busy) * 100).toFixed(1).padStart(5)}%${per ? ` ${(v / per).toFixed(1).padStart(7)} µs/req` : ''}  ${k}`;
  const top = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  console.log(
    `busy ${(busy / 1000).toFixed(0)} ms of ${(total / 1000).toFixed(0)} ms${per ? `, ${(busy / per).toFixed(0)} µs per request (${per})` : ''}`,
  );
  console.log('--- self time');
  for (const e of top(self)) if (!e[0].startsWith('(idle)')) console.log(line(e));
  console.log('--- time inside (server code, callees included)');
  for (const e of top(inside)) console.log(line(e));
}

if (process.argv[1]?.endsWith('cpuprof-sum.ts') && process.argv[2]) summarise(process.argv[2], Number(process.argv[3] ?? 30));
