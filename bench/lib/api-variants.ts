/**
 * The servers of bench/api.bench.ts (bench/lib/api-server.ts): the app as shipped, and the app with
 * one kept optimisation swapped for its simpler way (docs/decisions/018-optimisations-that-pay.md).
 * noSharedForecast: no kept estimate, each reader works out its venue's forecast itself (docs/decisions/038-one-forecast-per-change.md).
 */
export const API_VARIANTS = ['app', 'noKeptPositions', 'oneTransactionPerJoin', 'noStatementCache', 'noSharedForecast'] as const;
export type ApiVariant = (typeof API_VARIANTS)[number];
