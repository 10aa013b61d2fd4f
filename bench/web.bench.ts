// The diner pages in Debian's Chromium against the real built app and server:
// 1. the gzip size of the JavaScript a page loads before the first interaction (every script
//    response until the network is idle, gzipped here at level 9), against a budget per route;
// 2. the median of 5 Lighthouse mobile runs (simulated throttling) for performance and accessibility.
// Lighthouse's simulated throttling scales with the host's speed, and this machine is shared: so a
// reference page (bench/reference/, a minimal React page built by the bench and served by the same
// server) is measured in the same rounds, and each page's gap to it is printed. Each round measures
// every page once, the order turning by one each round (docs/decisions/018-optimisations-that-pay.md).
// Targets (docs/decisions/034-lean-diner-pages.md): JS <= 140 KB (join) and <= 110 KB (position),
// performance >= 97 and within 3 points of the reference, accessibility 100.
// Add a route to ROUTES (its path may be made by a function, like the position page's).
import zlib from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, DEMO_BISTRO_ID, launchBrowser, phoneContext, startVezServer } from '../e2e/support/index.js';
import { createBody } from '../apps/server/test/fixtures.js';
import { REFERENCE_PATH, webDistWithReference } from './lib/reference-page.js';
import { type BenchReport, round } from './lib/report.js';

export interface WebRoute {
  name: string;
  /** The path to load, or a function making it (for example by joining to get an entry id). */
  path: string | ((baseUrl: string) => Promise<string>);
  /** Budget of the JS loaded before the first interaction, KB gzip. */
  budgetKb: number;
}

/** The position page of a fresh entry: a diner joins the demo bistro through the public API. */
async function joinedPositionPath(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/waitlists/${DEMO_BISTRO_ID}/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(createBody({ customer: { name: 'Bench Diner', phone: '+5511900000001' } })),
  });
  if (!response.ok) throw new Error(`join for the position bench answered ${response.status}`);
  return `/waitlist/${((await response.json()) as { _id: string })._id}`;
}

export const ROUTES: WebRoute[] = [
  { name: 'join', path: `/remote-waitlist/${DEMO_BISTRO_ID}`, budgetKb: 140 },
  { name: 'position', path: joinedPositionPath, budgetKb: 110 },
];

/** BENCH_WEB_LIGHTHOUSE_RUNS=1 for a quick look while developing; the figures that count use 5. */
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_WEB_LIGHTHOUSE_RUNS ?? 5);
const PERFORMANCE_TARGET = 97;
/** The most a diner page's median performance may stay below the reference page's. */
const REFERENCE_GAP_TARGET = 3;
const ACCESSIBILITY_TARGET = 100;

interface ScriptFigure {
  url: string;
  rawBytes: number;
  gzipBytes: number;
}

/** Every script the page fetched until the network went idle, with no interaction at all. */
async function scriptsBeforeInteraction(url: string): Promise<ScriptFigure[]> {
  const browser = await launchBrowser();
  try {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    const pending: Promise<ScriptFigure | undefined>[] = [];
    page.on('response', (response) => {
      const type = response.request().resourceType();
      if (type !== 'script' && !response.url().endsWith('.js')) return;
      pending.push(
        response.body().then(
          (body) => ({ url: new URL(response.url()).pathname, rawBytes: body.length, gzipBytes: zlib.gzipSync(body, { level: 9 }).length }),
          () => undefined,
        ),
      );
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    // Idle-time work (the error reporter starts after the first paint) belongs to "before interaction" too.
    await page.waitForTimeout(3500);
    const figures = (await Promise.all(pending)).filter((f): f is ScriptFigure => Boolean(f));
    return [...new Map(figures.map((f) => [f.url, f])).values()];
  } finally {
    await browser.close();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

interface LighthouseRun {
  performance: number;
  accessibility: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
}

/** Lighthouse's own trace recording fails now and then (NO_NAVSTART: "run Lighthouse again"). */
const LIGHTHOUSE_ATTEMPTS = 3;

async function lighthouseRun(url: string): Promise<LighthouseRun> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await lighthouseAttempt(url);
    } catch (error) {
      if (!(error instanceof LighthouseRuntimeError) || attempt >= LIGHTHOUSE_ATTEMPTS) throw error;
      process.stderr.write(`[web] Lighthouse could not measure ${url} (${error.message}); running it again\n`);
    }
  }
}

class LighthouseRuntimeError extends Error {}

async function lighthouseAttempt(url: string): Promise<LighthouseRun> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_FLAGS });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
    });
    const lhr = result?.lhr;
    if (!lhr) throw new Error(`Lighthouse gave no result for ${url}`);
    // A failed recording scores 0: not a figure of the page, so it is measured again.
    if (lhr.runtimeError) throw new LighthouseRuntimeError(lhr.runtimeError.code);
    const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    return {
      performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
      lcpMs: round(audit('largest-contentful-paint')),
      tbtMs: round(audit('total-blocking-time')),
      cls: round(audit('cumulative-layout-shift'), 3),
    };
  } finally {
    chrome.kill();
  }
}

interface PageFigures {
  name: string;
  path: string;
  url: string;
  budgetKb?: number;
  scripts: ScriptFigure[];
  jsKb: number;
  runs: LighthouseRun[];
}

const medianOf = (runs: LighthouseRun[], key: keyof LighthouseRun) => median(runs.map((r) => r[key]));

export default async function run(): Promise<BenchReport> {
  const web = await webDistWithReference();
  // Every feature on: an error reporter with a DSN too (its SDK must not load on a page that works).
  const server = await startVezServer({ env: { WEB_DIST_DIR: web.dir, SENTRY_DSN: 'https://public@sentry.invalid/1' } });
  try {
    const pages: PageFigures[] = [];
    for (const route of ROUTES) {
      const path = typeof route.path === 'string' ? route.path : await route.path(server.baseUrl);
      pages.push({ name: route.name, path, url: `${server.baseUrl}${path}`, budgetKb: route.budgetKb, scripts: [], jsKb: 0, runs: [] });
    }
    pages.push({ name: 'reference', path: REFERENCE_PATH, url: `${server.baseUrl}${REFERENCE_PATH}`, scripts: [], jsKb: 0, runs: [] });
    for (const page of pages) {
      page.scripts = await scriptsBeforeInteraction(page.url);
      page.jsKb = round(page.scripts.reduce((sum, s) => sum + s.gzipBytes, 0) / 1024, 1);
    }
    // Every round measures every page once; the order turns by one each round.
    for (let i = 0; i < LIGHTHOUSE_RUNS; i++) {
      for (let k = 0; k < pages.length; k++) {
        const page = pages[(i + k) % pages.length]!;
        page.runs.push(await lighthouseRun(page.url));
      }
    }
    const reference = pages.find((p) => p.name === 'reference')!;
    const referencePerformance = medianOf(reference.runs, 'performance');

    const figures: Record<string, unknown> = {};
    const targets: BenchReport['targets'] = [];
    const rows: string[] = [];
    for (const page of pages) {
      const performance = medianOf(page.runs, 'performance');
      const accessibility = medianOf(page.runs, 'accessibility');
      const gap = performance - referencePerformance;
      // The same round's reference run against the page's: the pairs the shared machine cannot skew.
      const pairedGap = median(page.runs.map((r, i) => r.performance - (reference.runs[i]?.performance ?? Number.NaN)));
      figures[page.name] = {
        path: page.path,
        jsBeforeInteractionKbGzip: page.jsKb,
        scripts: page.scripts.map((s) => ({ ...s, gzipKb: round(s.gzipBytes / 1024, 1) })),
        lighthouseRuns: page.runs,
        lighthouseMedian: {
          performance,
          accessibility,
          lcpMs: medianOf(page.runs, 'lcpMs'),
          tbtMs: medianOf(page.runs, 'tbtMs'),
          cls: medianOf(page.runs, 'cls'),
        },
        ...(page === reference ? {} : { performanceGapToReference: gap, pairedPerformanceGapToReference: pairedGap }),
      };
      if (page !== reference && page.budgetKb !== undefined) {
        targets.push(
          {
            name: `${page.name}: JS before first interaction (KB gzip)`,
            value: page.jsKb,
            target: `<= ${page.budgetKb}`,
            met: page.jsKb <= page.budgetKb,
          },
          {
            name: `${page.name}: Lighthouse mobile performance (median of ${LIGHTHOUSE_RUNS})`,
            value: performance,
            target: `>= ${PERFORMANCE_TARGET}`,
            met: performance >= PERFORMANCE_TARGET,
          },
          {
            name: `${page.name}: performance gap to the reference page (${referencePerformance}), median against median`,
            value: gap,
            target: `>= -${REFERENCE_GAP_TARGET}`,
            met: gap >= -REFERENCE_GAP_TARGET,
          },
          {
            name: `${page.name}: Lighthouse accessibility (median of ${LIGHTHOUSE_RUNS})`,
            value: accessibility,
            target: `>= ${ACCESSIBILITY_TARGET}`,
            met: accessibility >= ACCESSIBILITY_TARGET,
          },
        );
      }
      const gapCell = page === reference ? '—' : `${gap} (paired ${pairedGap})`;
      rows.push(
        `| ${page.name} \`${page.path.replace(/[0-9a-f-]{36}/, '…')}\` | ${page.jsKb} (${page.scripts.length} files) | ${page.budgetKb ?? '—'} | ${page.runs.map((r) => r.performance).join(', ')} → **${performance}** | ${gapCell} | ${page.runs.map((r) => r.accessibility).join(', ')} → **${accessibility}** | ${medianOf(page.runs, 'lcpMs')} | ${medianOf(page.runs, 'tbtMs')} |`,
      );
      console.log(
        `${page.name}: ${page.jsKb} KB gzip JS before interaction; Lighthouse performance ${performance} (gap to reference ${page === reference ? 0 : gap}), accessibility ${accessibility}, LCP ${medianOf(page.runs, 'lcpMs')} ms, TBT ${medianOf(page.runs, 'tbtMs')} ms`,
      );
    }
    return {
      title:
        'Diner web pages: JavaScript before first interaction and Lighthouse mobile against a reference React page (Debian Chromium, local server)',
      environment: {
        chromium: CHROMIUM_PATH,
        lighthouseRuns: LIGHTHOUSE_RUNS,
        throttling: 'Lighthouse mobile default (simulated)',
        reference: 'bench/reference: React + react-dom rendering a heading and a paragraph, served by the same server',
        store: 'SQLite, demo data',
        sentryDsn: 'set (https://public@sentry.invalid/1)',
      },
      figures,
      targets,
      markdown: [
        '| Page | JS KB gzip before interaction | budget KB | Lighthouse performance (runs → median) | gap to reference | accessibility | LCP ms | TBT ms |',
        '|---|---:|---:|---|---:|---|---:|---:|',
        ...rows,
      ].join('\n'),
    };
  } finally {
    await server.stop();
    web.remove();
  }
}
