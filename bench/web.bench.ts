// The diner pages in Debian's Chromium against the real built app and server:
// 1. the gzip size of the JavaScript a page loads before the first interaction (every script
//    response until the network is idle, gzipped here at level 9), against a budget per route;
// 2. the median of 3 Lighthouse mobile runs (simulated throttling) for performance and accessibility.
// Targets: /remote-waitlist/{venueId} <= 160 KB, performance >= 95, accessibility 100.
// Add a route to ROUTES (the position page: budget 120 KB, its path made by `prepare`).
import zlib from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, DEMO_BISTRO_ID, launchBrowser, phoneContext, startVezServer } from '../e2e/support/index.js';
import { createBody } from '../apps/server/test/fixtures.js';
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
  { name: 'join', path: `/remote-waitlist/${DEMO_BISTRO_ID}`, budgetKb: 160 },
  { name: 'position', path: joinedPositionPath, budgetKb: 120 },
];

const LIGHTHOUSE_RUNS = 3;
const PERFORMANCE_TARGET = 95;
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

export default async function run(): Promise<BenchReport> {
  const server = await startVezServer();
  try {
    const figures: Record<string, unknown> = {};
    const targets: BenchReport['targets'] = [];
    const rows: string[] = [];
    for (const route of ROUTES) {
      const path = typeof route.path === 'string' ? route.path : await route.path(server.baseUrl);
      const url = `${server.baseUrl}${path}`;
      const scripts = await scriptsBeforeInteraction(url);
      const jsKb = round(scripts.reduce((sum, s) => sum + s.gzipBytes, 0) / 1024, 1);
      const runs: LighthouseRun[] = [];
      for (let i = 0; i < LIGHTHOUSE_RUNS; i++) runs.push(await lighthouseRun(url));
      const performance = median(runs.map((r) => r.performance));
      const accessibility = median(runs.map((r) => r.accessibility));
      figures[route.name] = {
        path,
        jsBeforeInteractionKbGzip: jsKb,
        scripts: scripts.map((s) => ({ ...s, gzipKb: round(s.gzipBytes / 1024, 1) })),
        lighthouseRuns: runs,
        lighthouseMedian: { performance, accessibility, lcpMs: median(runs.map((r) => r.lcpMs)), tbtMs: median(runs.map((r) => r.tbtMs)) },
      };
      targets.push(
        {
          name: `${route.name}: JS before first interaction (KB gzip)`,
          value: jsKb,
          target: `<= ${route.budgetKb}`,
          met: jsKb <= route.budgetKb,
        },
        {
          name: `${route.name}: Lighthouse mobile performance (median of ${LIGHTHOUSE_RUNS})`,
          value: performance,
          target: `>= ${PERFORMANCE_TARGET}`,
          met: performance >= PERFORMANCE_TARGET,
        },
        {
          name: `${route.name}: Lighthouse accessibility (median of ${LIGHTHOUSE_RUNS})`,
          value: accessibility,
          target: `>= ${ACCESSIBILITY_TARGET}`,
          met: accessibility >= ACCESSIBILITY_TARGET,
        },
      );
      rows.push(
        `| ${route.name} \`${path}\` | ${jsKb} (${scripts.length} files) | ${route.budgetKb} | ${runs.map((r) => r.performance).join(', ')} → **${performance}** | ${runs.map((r) => r.accessibility).join(', ')} → **${accessibility}** | ${median(runs.map((r) => r.lcpMs))} | ${median(runs.map((r) => r.tbtMs))} |`,
      );
      console.log(
        `${route.name}: ${jsKb} KB gzip JS before interaction; Lighthouse performance ${performance}, accessibility ${accessibility}`,
      );
    }
    return {
      title: 'Diner web pages: JavaScript before first interaction and Lighthouse mobile (Debian Chromium, local server)',
      environment: {
        chromium: CHROMIUM_PATH,
        lighthouseRuns: LIGHTHOUSE_RUNS,
        throttling: 'Lighthouse mobile default (simulated)',
        store: 'SQLite, demo data',
      },
      figures,
      targets,
      markdown: [
        '| Route | JS KB gzip before interaction | budget KB | Lighthouse performance (runs → median) | accessibility | LCP ms | TBT ms |',
        '|---|---:|---:|---|---|---:|---:|',
        ...rows,
      ].join('\n'),
    };
  } finally {
    await server.stop();
  }
}
