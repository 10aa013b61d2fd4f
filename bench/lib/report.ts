/**
 * What a benchmark module gives back. Every `bench/<name>.bench.ts` default-exports
 * `async () => BenchReport`; `bench/run.ts` runs each in a process of its own, writes the report to
 * `bench/results/<name>.json` and its `markdown` into `bench/results/latest.md`.
 */
export interface BenchReport {
  /** What was measured, one line. */
  title: string;
  /** Machine, store, settings: anything needed to read the figures. */
  environment: Record<string, string | number | boolean>;
  /** The measured figures, free-form JSON. */
  figures: Record<string, unknown>;
  /** Each target of the issue with the measured value and whether it was met. */
  targets: { name: string; value: number; target: string; met: boolean }[];
  /** A short Markdown section for latest.md (tables of the figures). */
  markdown: string;
}

export interface LoadFigures {
  label: string;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  non2xx: number;
  errors: number;
  connections: number;
  durationS: number;
  /** Server CPU time (user + system) per answer, when the server's process could be read. */
  serverCpuUsPerRequest?: number;
}

export const round = (n: number, digits = 0) => Math.round(n * 10 ** digits) / 10 ** digits;

/** A Markdown table of load figures. */
export function loadTable(rows: LoadFigures[]): string {
  const lines = [
    '| Load | req/s | p50 ms | p99 ms | server CPU µs/req | requests | non-2xx | errors |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.label} | ${round(r.requestsPerSec)} | ${round(r.p50Ms, 2)} | ${round(r.p99Ms, 2)} | ${r.serverCpuUsPerRequest === undefined ? 'n/a' : round(r.serverCpuUsPerRequest)} | ${r.total} | ${r.non2xx} | ${r.errors} |`,
    ),
  ];
  return lines.join('\n');
}
