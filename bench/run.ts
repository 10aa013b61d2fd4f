// `npm run bench`: runs every bench/*.bench.ts in turn, each in a process of its own (one failing
// does not stop the others), prints its figures, writes bench/results/<name>.json and a summary
// of the whole run to bench/results/latest.md. `npm run bench -- api` runs only names matching;
// `npm run bench -- capacity --render` runs nothing: the bench renders its stored figures again
// (for a bench with a `--render` mode) and the summary takes them.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchReport } from './lib/report.js';

const benchDir = import.meta.dirname;
const resultsDir = path.join(benchDir, 'results');
/** Per bench: the capacity bench's five setups at full scale take about 30 minutes on 2 cores (docs/decisions/036-capacity-by-cpu-accounting.md). */
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MINUTES ?? 45) * 60_000;

type Outcome = { name: string; ok: true; report: BenchReport } | { name: string; ok: false; reason: string };

function runOne(file: string, render = false): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    const args = render ? [file, '--render'] : [path.join(benchDir, 'lib/run-one.ts'), file];
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
      cwd: path.resolve(benchDir, '..'),
      stdio: 'inherit',
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}

async function main(): Promise<void> {
  const render = process.argv.includes('--render');
  const filters = process.argv.slice(2).filter((a) => a !== '--render');
  const files = fs
    .readdirSync(benchDir)
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
    .sort();
  if (files.length === 0) throw new Error('no bench/*.bench.ts matched');

  const outcomes: Outcome[] = [];
  for (const file of files) {
    const name = path.basename(file, '.bench.ts');
    const resultFile = path.join(resultsDir, `${name}.json`);
    const startedAt = Date.now();
    console.log(`\n=== ${name} (${file})`);
    if (render && !fs.readFileSync(path.join(benchDir, file), 'utf8').includes("'--render'")) {
      outcomes.push({ name, ok: false, reason: 'no --render mode: not run' });
      continue;
    }
    const { code, signal } = await runOne(path.join(benchDir, file), render);
    const fresh = fs.existsSync(resultFile) && fs.statSync(resultFile).mtimeMs >= startedAt;
    if (code === 0 && fresh) {
      const report = JSON.parse(fs.readFileSync(resultFile, 'utf8')) as BenchReport;
      outcomes.push({ name, ok: true, report });
      console.log(`\n${report.title}\n${report.markdown}\n${targetLines(report).join('\n')}`);
    } else {
      const reason = signal ? `killed by ${signal}` : `exited with ${code}${fresh ? '' : ', no results written'}`;
      outcomes.push({ name, ok: false, reason });
      console.error(`\n${name} FAILED: ${reason}`);
    }
  }

  fs.mkdirSync(resultsDir, { recursive: true });
  // A partial run (filtered) must not drop the other benchmarks from the summary: keep their sections.
  const summary = renderSummary(outcomes, filters.length > 0 ? readOtherSections(outcomes) : []);
  fs.writeFileSync(path.join(resultsDir, 'latest.md'), summary);
  console.log(`\nwrote ${path.relative(process.cwd(), resultsDir)}/latest.md`);
  const failed = outcomes.filter((o) => !o.ok);
  if (failed.length > 0) {
    console.error(`${failed.length} benchmark(s) failed: ${failed.map((f) => f.name).join(', ')}`);
    process.exitCode = 1;
  }
}

function targetLines(report: BenchReport): string[] {
  return report.targets.map((t) => `${t.met ? 'MET ' : 'MISSED'} ${t.name}: ${t.value} (target ${t.target})`);
}

function section(outcome: Outcome): string {
  if (!outcome.ok) return `## ${outcome.name}\n\nFAILED in this run: ${outcome.reason}. See the run's output.\n`;
  const { report } = outcome;
  const targets = report.targets.length
    ? [
        '',
        '| Target | Measured | Wanted | |',
        '|---|---:|---|---|',
        ...report.targets.map((t) => `| ${t.name} | ${t.value} | ${t.target} | ${t.met ? 'met' : '**missed**'} |`),
      ]
    : [];
  const env = Object.entries(report.environment)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
  return [`## ${outcome.name}: ${report.title}`, '', `Settings: ${env}`, '', report.markdown, ...targets, ''].join('\n');
}

/** Sections of benchmarks not run this time, taken from their last JSON results. */
function readOtherSections(ran: Outcome[]): Outcome[] {
  const names = new Set(ran.map((o) => o.name));
  return fs
    .readdirSync(resultsDir)
    .filter((f) => f.endsWith('.json') && !names.has(path.basename(f, '.json')))
    .sort()
    .flatMap((f) => {
      try {
        const report = JSON.parse(fs.readFileSync(path.join(resultsDir, f), 'utf8')) as BenchReport & { ranAt?: string };
        if (typeof report.markdown !== 'string' || !Array.isArray(report.targets)) return [];
        return [
          {
            name: path.basename(f, '.json'),
            ok: true as const,
            report: { ...report, title: `${report.title} (from ${report.ranAt ?? 'an earlier run'})` },
          },
        ];
      } catch {
        return [];
      }
    });
}

function renderSummary(outcomes: Outcome[], others: Outcome[]): string {
  const cpu = os.cpus();
  return [
    '# Benchmark results',
    '',
    `Run ${new Date().toISOString()} on ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, Node ${process.version}, ${os.platform()} ${os.release()}.`,
    'Loopback only; load generator and server share the machine. Figures vary run to run by a few per cent.',
    '',
    ...[...outcomes, ...others].sort((a, b) => a.name.localeCompare(b.name)).map(section),
  ].join('\n');
}

await main();
