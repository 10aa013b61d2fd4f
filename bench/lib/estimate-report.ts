// The figures, tables and targets of bench/estimate.bench.ts (bench/README.md): per scenario and
// quote kind (the quote at join, the position page's re-quotes), training and held-out apart.
import { BOOTSTRAP_RESAMPLES, type Figures, type Interval, type Scored, bootstrapByDay, figuresOf } from './estimate-metrics.js';
import type { Scenario } from './restaurant-sim.js';
import { type BenchReport, round } from './report.js';
import { RULE_OF_THUMB_MINUTES } from './baselines.js';

export const OLD = 'exponential average (before)';
export const REGRESSION = 'count regression (baseline)';
/** The same product at a venue that does not list its tables: the estimator's seat-time forecasts alone. */
export const PLAIN = 'estimator, no tables listed';
export const PROTOTYPE = 'tables recorded (prototype)';
export const ESTIMATORS = ['rule of thumb', OLD, REGRESSION, 'estimator', PLAIN, 'oracle', PROTOTYPE] as const;
export type EstimatorName = (typeof ESTIMATORS)[number];
/** Scored on the parties every one of these quoted (the old average and the prototype start later, and the prototype gives no re-quotes). */
const REQUIRED: EstimatorName[] = ['rule of thumb', REGRESSION, 'estimator', PLAIN, 'oracle'];
/** Given confidence intervals: the product's quotes and the baseline. */
const WITH_INTERVALS: EstimatorName[] = ['estimator', PLAIN, REGRESSION, PROTOTYPE];

/** Targets (decisions.md §12, the benchmark's brief): strict coverage, misses past the top, MAE over the fixed oracle's. */
const COVERAGE_TARGET = { low: 0.75, high: 0.85 };
const PAST_TOP_MAX = 0.12;
const RATIO_MAX = { training: 1.25, heldOut: 1.35 };

export interface Row {
  scenario: Scenario;
  joins: (Scored<EstimatorName> & { before?: unknown })[];
  requotes: (Scored<EstimatorName> & { before?: unknown })[];
  seconds: number;
  joinCount: number;
}

type Kind = 'joins' | 'requotes';
const KIND_LABEL: Record<Kind, string> = { joins: 'quote at join', requotes: 're-quotes (position page)' };

interface KindFigures {
  parties: number;
  figures: Partial<Record<EstimatorName, Figures & { ratio: number; ratioCi?: Interval; coverageCi?: Interval | null }>>;
}

function kindFigures(scored: Scored<EstimatorName>[]): KindFigures {
  const common = scored.filter((x) => REQUIRED.every((name) => x.quotes[name]));
  const figures: KindFigures['figures'] = {};
  for (const name of ESTIMATORS) {
    const f = figuresOf(common, name);
    if (f.parties === 0) continue;
    // The ratio on the parties this estimator quoted (all of them, but for the old average's first days and the prototype's).
    const both = common.filter((x) => x.quotes[name]);
    const ratio = f.meanAbsError / Math.max(1e-9, figuresOf(both, 'oracle').meanAbsError);
    const ci = WITH_INTERVALS.includes(name) ? bootstrapByDay(both, name, 'oracle') : null;
    figures[name] = { ...f, ratio: name === 'oracle' ? 1 : ratio, ...(ci ? { ratioCi: ci.ratio, coverageCi: ci.coverage } : {}) };
  }
  return { parties: common.length, figures };
}

const pct = (x: number | null | undefined, digits = 1) => (x === null || x === undefined ? '—' : `${round(x * 100, digits)}%`);
const ci = (i: Interval | null | undefined, f: (x: number) => string) => (i ? ` (${f(i.low)}-${f(i.high)})` : '');
const two = (x: number) => String(round(x, 2));

export function summaryLines(row: Row): string[] {
  const split = row.scenario.heldOut ? 'held-out' : 'training';
  const out = [`${row.scenario.name} (${split}): ${row.joinCount} joins, ${round(row.seconds, 1)} s`];
  for (const kind of ['joins', 'requotes'] as const) {
    const k = kindFigures(row[kind]);
    out.push(`  ${KIND_LABEL[kind]}: ${k.parties} scored`);
    for (const [name, f] of Object.entries(k.figures)) {
      out.push(
        `    ${name.padEnd(30)} MAE ${round(f.meanAbsError, 1)} ÷oracle ${two(f.ratio)}${ci(f.ratioCi, two)} bias ${round(f.bias, 1)} cover ${pct(f.coverage)}${ci(f.coverageCi, (x) => pct(x, 0))} past top ${pct(f.pastTop)} IS ${f.intervalScore === null ? '—' : round(f.intervalScore, 1)}`,
      );
    }
  }
  return out;
}

function table(rows: { row: Row; kinds: Record<Kind, KindFigures> }[], kind: Kind): string[] {
  return [
    '| Scenario | Quote | n | MAE (min) | ÷ oracle (95 % CI) | p90 abs. error | Bias | Strict coverage (95 % CI) | Past top | Below bottom | Interval score | Mean width |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.flatMap(({ row, kinds }) =>
      Object.entries(kinds[kind].figures).map(([name, f]) => {
        const label = name === 'rule of thumb' ? `rule of thumb (${RULE_OF_THUMB_MINUTES} min a party)` : name;
        return `| ${row.scenario.name} | ${label} | ${f.parties} | ${round(f.meanAbsError, 1)} | ${two(f.ratio)}${ci(f.ratioCi, two)} | ${round(f.p90AbsError, 1)} | ${round(f.bias, 1)} | ${pct(f.coverage)}${ci(f.coverageCi, (x) => pct(x))} | ${pct(f.pastTop)} | ${pct(f.belowBottom)} | ${f.intervalScore === null ? '—' : round(f.intervalScore, 1)} | ${f.meanWidth === null ? '—' : round(f.meanWidth, 1)} |`;
      }),
    ),
  ];
}

export function reportOf(results: Row[], environment: BenchReport['environment']): BenchReport {
  const rows = results.map((row) => ({ row, kinds: { joins: kindFigures(row.joins), requotes: kindFigures(row.requotes) } }));
  const targets = rows.flatMap(({ row, kinds }) =>
    (['joins', 'requotes'] as const).flatMap((kind) => {
      const f = kinds[kind].figures.estimator;
      if (!f) return [];
      const split = row.scenario.heldOut ? 'held-out' : 'training';
      const at = `${row.scenario.name} (${split}), ${KIND_LABEL[kind]}`;
      const max = row.scenario.heldOut ? RATIO_MAX.heldOut : RATIO_MAX.training;
      const coverage = f.coverage ?? 0;
      return [
        {
          name: `${at}: strict coverage${f.coverageCi ? `, 95 % CI ${pct(f.coverageCi.low)}-${pct(f.coverageCi.high)}` : ''}`,
          value: round(coverage * 100, 1),
          target: `${COVERAGE_TARGET.low * 100}-${COVERAGE_TARGET.high * 100} %`,
          met: coverage >= COVERAGE_TARGET.low && coverage <= COVERAGE_TARGET.high,
        },
        {
          name: `${at}: seated past the top`,
          value: round((f.pastTop ?? 1) * 100, 1),
          target: `<= ${PAST_TOP_MAX * 100} %`,
          met: (f.pastTop ?? 1) <= PAST_TOP_MAX,
        },
        {
          name: `${at}: MAE ÷ the fixed oracle's, 95 % CI up to ${f.ratioCi ? two(f.ratioCi.high) : '—'}`,
          value: round(f.ratio, 2),
          target: `<= ${max}`,
          met: f.ratio <= max,
        },
      ];
    }),
  );
  const section = (heldOut: boolean) => {
    const mine = rows.filter(({ row }) => Boolean(row.scenario.heldOut) === heldOut);
    if (mine.length === 0) return [];
    const title = heldOut ? 'Held-out scenarios (no constant of the product tuned on them)' : 'Training scenarios';
    return (['joins', 'requotes'] as const).flatMap((kind) => [`### ${title}: ${KIND_LABEL[kind]}`, '', ...table(mine, kind), '']);
  };
  return {
    title: `Wait quotes against a simulated restaurant: ${results.length} scenarios (${results.filter((r) => !r.scenario.heldOut).length} training, ${results.filter((r) => r.scenario.heldOut).length} held out), ${environment.weeks} weeks each (the last ${environment.scoredWeeks} scored), the product's services on SQLite`,
    environment,
    figures: Object.fromEntries(
      rows.map(({ row, kinds }) => [
        row.scenario.name,
        {
          heldOut: Boolean(row.scenario.heldOut),
          joins: row.joinCount,
          seconds: round(row.seconds, 1),
          atJoin: kinds.joins,
          requotes: kinds.requotes,
        },
      ]),
    ),
    targets,
    markdown: [
      ...section(false),
      ...section(true),
      `Bias is actual minus quoted (positive: waits ran longer than quoted). Actual: minutes from the quote's moment to the party's true seat. Strict coverage: seated at or after the range's bottom and at or before its top (whole minutes as the page shows them, the wait not rounded). Interval score: width + 2/α × the miss beyond either end, α = 0.2 (lower is better). 95 % intervals: percentiles of ${BOOTSTRAP_RESAMPLES} resamples of the scored days. Parties scored: seated in the scored weeks and quoted by the rule of thumb, the regression, both venues and the oracle (${environment.oracleRuns} futures per quote). Re-quotes: every waiting party's position page every ${environment.requoteMinutes} simulated minutes, against the wait left.`,
    ].join('\n'),
  };
}
