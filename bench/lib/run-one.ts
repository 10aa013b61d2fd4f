// Runs one benchmark module in this process and writes its report to bench/results/<name>.json.
// bench/run.ts starts one of these per benchmark, so a crash or a leaked handle stays contained.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchReport } from './report.js';

const file = process.argv[2];
if (!file) throw new Error('usage: run-one.ts <path/to/name.bench.ts>');
const name = path.basename(file, '.bench.ts');
const resultsDir = path.resolve(import.meta.dirname, '../results');

const mod = (await import(pathToFileURL(path.resolve(file)).href)) as { default?: () => Promise<BenchReport> };
if (typeof mod.default !== 'function') throw new Error(`${file} must default-export an async function returning a BenchReport`);
const report = await mod.default();
const machine = {
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model ?? 'unknown',
  node: process.version,
  platform: `${os.platform()} ${os.release()}`,
};
fs.mkdirSync(resultsDir, { recursive: true });
fs.writeFileSync(
  path.join(resultsDir, `${name}.json`),
  `${JSON.stringify({ name, ranAt: new Date().toISOString(), machine, ...report }, null, 2)}\n`,
);
// Open handles (sockets, timers) a benchmark forgot must not keep the run waiting.
process.exit(0);
