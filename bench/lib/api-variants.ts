/**
 * The servers of bench/api.bench.ts (bench/lib/api-server.ts): the app as shipped, and the app with
 * one kept optimisation swapped for its simpler way (docs/decisions/018-optimisations-that-pay.md).
 * noSharedForecast: no kept estimate, each reader works out its venue's forecast itself (docs/decisions/038-one-forecast-per-change.md).
 * notifierOwnCommits: the message worker's outbox writes in commits of their own, and a claim every
 * round (docs/decisions/039-notifier-rides-the-write-batch.md).
 */
export const API_VARIANTS = [
  'app',
  'noKeptPositions',
  'oneTransactionPerJoin',
  'noStatementCache',
  'noSharedForecast',
  'notifierOwnCommits',
] as const;
export type ApiVariant = (typeof API_VARIANTS)[number];
