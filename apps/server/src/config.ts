import path from 'node:path';
import * as z from 'zod';

/**
 * Every environment variable the server reads, validated once at start (conventions §5).
 * Nothing else in the server reads process.env.
 */
const csvOrigins = z
  .string()
  .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean));

const boolFlag = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');

const url = (name: string) =>
  z.string().refine((v) => {
    try {
      new URL(v);
      return true;
    } catch {
      return false;
    }
  }, `${name} must be an absolute URL (for example https://vez.example)`);

const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: z
    .string()
    .optional()
    .refine(
      (v) => v === undefined || v === '' || v.startsWith('file:') || /^postgres(ql)?:\/\//.test(v),
      'DATABASE_URL must be file:/path/to.db or postgres://…',
    ),
  PUBLIC_BASE_URL: url('PUBLIC_BASE_URL').optional(),
  SMART_LINK_BASE_URL: url('SMART_LINK_BASE_URL').default('https://reservas.vez.example/'),
  IMAGE_BASE_URL: z.string().default('/images'),
  /** Largest venue image upload accepted (bytes); larger answers 413. */
  IMAGE_MAX_UPLOAD_BYTES: z.coerce.number().int().positive().default(5 * 1024 * 1024),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'REDIS_URL must be redis://…').optional(),
  SENTRY_DSN: url('SENTRY_DSN').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RETENTION_HOURS: z.coerce.number().positive().default(24),
  RETENTION_INTERVAL_MINUTES: z.coerce.number().positive().default(15),
  RATE_LIMIT_JOINS_PER_10_MIN: z.coerce.number().int().positive().default(300),
  RATE_LIMIT_READS_PER_MIN: z.coerce.number().int().positive().default(600),
  TRUST_PROXY: boolFlag.default(false),
  DEMO: boolFlag.default(false),
  /** Adds GET /api/bench/bare (no store) as the benchmark's baseline; never in production. */
  BENCH_BARE_ROUTE: boolFlag.default(false),
  WEB_DIST_DIR: z.string().optional(),
  CORS_ORIGINS: csvOrigins.optional(),
});

export type Config = z.infer<typeof ConfigSchema> & {
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
  publicBaseUrl: string;
  isProduction: boolean;
};

export class ConfigError extends Error {}

/** Parses the environment; throws a ConfigError whose message names every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const result = ConfigSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = result.data;
  const dbUrl = c.DATABASE_URL;
  const database: Config['database'] =
    dbUrl && /^postgres(ql)?:\/\//.test(dbUrl)
      ? { kind: 'postgres', url: dbUrl }
      : { kind: 'sqlite', file: path.resolve(cwd, dbUrl ? dbUrl.slice('file:'.length) : 'data/vez.db') };
  return {
    ...c,
    database,
    publicBaseUrl: (c.PUBLIC_BASE_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
    isProduction: c.NODE_ENV === 'production',
  };
}
