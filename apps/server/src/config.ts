import path from 'node:path';
import { LANGUAGES, MESSAGE_KINDS, TEMPLATE_VARIABLES } from '@vez/contract';
import * as z from 'zod';
import { parseTrustProxy } from './lib/trust-proxy.js';

/**
 * Every environment variable the server reads, validated once at start (docs/ARCHITECTURE.md, habit 5).
 * Nothing else in the server reads process.env.
 */
const csvOrigins = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

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

/**
 * WHATSAPP_TEMPLATES (docs/product.md §10, docs/decisions/029-whatsapp-templates.md): JSON, message
 * kind then language to the approved template's sid and the variables that fill its numbered slots
 * in order, e.g. {"call": {"pt": {"sid": "HX…", "vars": ["name", "venue", "hold", "link"]}}}.
 */
const WhatsAppTemplate = z.strictObject({
  sid: z.string().regex(/^HX[0-9a-fA-F]{32}$/, 'sid must be a Content template sid: HX and 32 hexadecimal digits'),
  vars: z.array(z.enum(TEMPLATE_VARIABLES)).max(20),
});
const WhatsAppTemplates = z
  .string()
  .transform((raw, ctx) => {
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be JSON, e.g. {"call": {"pt": {"sid": "HX…", "vars": ["name", "venue"]}}}' });
      return z.NEVER;
    }
  })
  .pipe(
    z.partialRecord(z.enum(MESSAGE_KINDS), z.partialRecord(z.enum(['pt', 'en']), WhatsAppTemplate)).superRefine((templates, ctx) => {
      // The join message is how a party finds its page (docs/product.md §8): its template carries the link.
      for (const lang of ['pt', 'en'] as const) {
        const join = templates.join?.[lang];
        if (join && !join.vars.includes('link')) {
          ctx.addIssue({ code: 'custom', path: ['join', lang, 'vars'], message: 'the join template must fill a slot with "link"' });
        }
      }
    }),
  );
export type WhatsAppTemplates = z.infer<typeof WhatsAppTemplates>;

/**
 * A WhatsApp venue asks its parties for consent only when the join template exists in every
 * language of the pages: whatever language a party joins in, its join message goes by WhatsApp
 * as the success dialog says (docs/decisions/029-whatsapp-templates.md).
 */
export const asksForWhatsApp = (templates: WhatsAppTemplates): boolean => LANGUAGES.every((lang) => templates.join?.[lang] !== undefined);

const ConfigSchema = z.object({
  /**
   * Only whether answers are checked against their contract (app.ts): `development` and `test` check,
   * `production` (the default) does not. It relaxes no rule: only DEMO does (docs/security.md, Safe defaults).
   */
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: z
    .string()
    .optional()
    .refine(
      (v) => v === undefined || v === '' || v.startsWith('file:') || /^postgres(ql)?:\/\//.test(v),
      'DATABASE_URL must be file:/path/to.db or postgres://…',
    ),
  /** PostgreSQL only: the schema Vez keeps its tables in (default: the server's search_path, usually public). */
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'DATABASE_SCHEMA must be a PostgreSQL schema name: a-z, 0-9 and _, not starting with a digit')
    .optional(),
  PUBLIC_BASE_URL: url('PUBLIC_BASE_URL').optional(),
  /** Where venues' reservation links point; http(s) only (a link a diner follows). */
  SMART_LINK_BASE_URL: url('SMART_LINK_BASE_URL')
    .refine((v) => /^https?:\/\//i.test(v), 'SMART_LINK_BASE_URL must be an http(s) URL')
    .default('https://reservas.vez.example/'),
  IMAGE_BASE_URL: z.string().default('/images'),
  /** Largest venue image upload accepted (bytes); larger answers 413. */
  IMAGE_MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * 1024 * 1024),
  /**
   * Images a venue may keep stored, and their bytes together (after conversion); an upload past
   * either answers 409 IMAGE_QUOTA_EXCEEDED naming the limit (docs/decisions/026). A theme uses a
   * logo, a background and a few banners: 20 leaves room to replace them; 20 MB holds four uploads
   * of the largest size or dozens of ordinary ones.
   */
  IMAGE_MAX_PER_VENUE: z.coerce.number().int().positive().default(20),
  IMAGE_MAX_BYTES_PER_VENUE: z.coerce
    .number()
    .int()
    .positive()
    .default(20 * 1024 * 1024),
  /**
   * Image conversions (cache misses of `?w=&quality=&format=`) per client address per minute; more
   * answers 429 (docs/security.md). Cached answers do not count.
   */
  IMAGE_CONVERSIONS_PER_ADDRESS_PER_MIN: z.coerce.number().int().positive().default(60),
  /** An image conversion or upload that decodes longer than this is refused (422), never held. */
  IMAGE_CONVERT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(60).default(5),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'REDIS_URL must be redis://…')
    .optional(),
  /**
   * The start of every Redis channel name: deployments (or test runs) that share one Redis give each
   * its own, so one never hears the other's venue events or ended sessions (README, Configuration).
   */
  REDIS_PREFIX: z
    .string()
    .regex(/^[\w:.-]{1,64}$/, 'REDIS_PREFIX must be 1 to 64 letters, digits, or _ : . -')
    .default('vez:venue:'),
  SENTRY_DSN: url('SENTRY_DSN').optional(),
  /** `/metrics` answers a bearer of this token (plugins/metrics.ts); unset, the route does not exist. */
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Personal data of ended entries is erased this long after they end; diners' user events (their
   * join payloads), and team invitations used or expired, this long after (docs/security.md, Retention).
   */
  RETENTION_HOURS: z.coerce.number().positive().default(24),
  /** A diner account keeps its newest this many user events; older ones are deleted as new ones come (docs/decisions/026). */
  USER_EVENTS_MAX_PER_USER: z.coerce.number().int().positive().default(50),
  RETENTION_INTERVAL_MINUTES: z.coerce.number().positive().default(15),
  /**
   * Parties still waiting or called this many hours after joining are ended (reason Expired) by the
   * retention job, and erased RETENTION_HOURS later like every finished entry (docs/product.md §3).
   */
  RETENTION_OPEN_MAX_HOURS: z.coerce.number().positive().default(24),
  /**
   * Joins per client address per 10 minutes, all venues together (docs/product.md §3: at least 300; a
   * shared network such as a mall's joins several venues from one address).
   */
  RATE_LIMIT_JOINS_PER_10_MIN: z.coerce.number().int().positive().default(1000),
  /** Joins per venue and client address per 10 minutes (docs/product.md §3: at least 300, room for a venue's own kiosk). */
  RATE_LIMIT_JOINS_PER_VENUE_PER_ADDRESS_10_MIN: z.coerce.number().int().positive().default(300),
  /**
   * Open parties (waiting or called) one client address may have at one venue; the next remote join
   * answers 409 TOO_MANY_OPEN_FROM_ADDRESS (docs/decisions/026). 5 leaves room for a family or a table
   * of friends joining as several parties from one home or phone; the venue's own kiosk (a browser
   * with a staff session of that venue) is not counted. Counted in the store: every instance agrees.
   */
  JOIN_MAX_OPEN_PER_ADDRESS_PER_VENUE: z.coerce.number().int().positive().default(5),
  /** One-time code sends per phone or email, and per client address, per 10 minutes (docs/product.md §3). */
  OTP_SENDS_PER_TARGET_PER_10_MIN: z.coerce.number().int().positive().default(5),
  OTP_SENDS_PER_ADDRESS_PER_10_MIN: z.coerce.number().int().positive().default(30),
  /** Who delivers SMS and email; `outbox` stores them for GET /api/dev/outbox (docs/product.md §5). */
  SMS_PROVIDER: z.enum(['outbox', 'twilio']).default('outbox'),
  EMAIL_PROVIDER: z.enum(['outbox', 'smtp']).default('outbox'),
  /** smtp://user:pass@host:587 or smtps://…; required when EMAIL_PROVIDER=smtp. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'SMTP_URL must be smtp://… or smtps://…')
    .optional(),
  EMAIL_FROM: z.string().default('Vez <no-reply@vez.example>'),
  /** Twilio's Messages API base; tests point it at a local server. SID, token and sender are required with twilio. */
  SMS_API_URL: url('SMS_API_URL').default('https://api.twilio.com'),
  SMS_ACCOUNT_SID: z.string().optional(),
  SMS_AUTH_TOKEN: z.string().optional(),
  SMS_FROM: z.string().optional(),
  /** The WhatsApp sender for venues whose channel is WhatsApp (docs/product.md §8), `whatsapp:+…` or `+…`. */
  SMS_WHATSAPP_FROM: z.string().optional(),
  /** The approved WhatsApp templates of the messages the venue starts; a kind or language without one goes by SMS. */
  WHATSAPP_TEMPLATES: WhatsAppTemplates.default({}),
  /** Browser push (docs/product.md §8): the VAPID key pair; made and kept in the store when unset. */
  VAPID_PUBLIC_KEY: z.string().optional(),
  VAPID_PRIVATE_KEY: z.string().optional(),
  /** The contact push services see (`mailto:` or an https URL); default: PUBLIC_BASE_URL when https. */
  VAPID_SUBJECT: z.string().optional(),
  /**
   * Push services the server may post to, by host suffix, over https (a subscription names a URL the
   * server will call: anything else is refused). Only the demo allows any host (docs/security.md).
   */
  PUSH_HOSTS: z
    .string()
    .default('fcm.googleapis.com,updates.push.services.mozilla.com,push.services.mozilla.com,notify.windows.com,push.apple.com')
    .transform((v) =>
      v
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    ),
  /** Whether this instance sends queued messages (an instance may serve HTTP only), and how often it looks. */
  MESSAGE_WORKER: boolFlag.default(true),
  MESSAGE_WORKER_INTERVAL_MS: z.coerce.number().int().min(50).default(1000),
  MESSAGE_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  /**
   * Who may name the client's address in X-Forwarded-For (docs/security.md): `false`/`0` nobody
   * (the default: a client's own header never moves a rate limit), a hop count (`1` behind one
   * proxy), or the proxies' addresses/CIDRs. `true` is refused: any client could pick its address.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((raw, ctx) => {
      const parsed = parseTrustProxy(raw);
      if ('value' in parsed) return parsed.value;
      ctx.addIssue({ code: 'custom', message: parsed.error });
      return z.NEVER;
    }),
  /**
   * Staff login (docs/product.md §3): wrong passwords for one account from one client address in 15
   * minutes before that pair must wait; each further failure doubles the wait (1 s, 2 s, … up to
   * 15 min). Other addresses, the real owner's included, are not slowed by it.
   */
  LOGIN_MAX_PER_ACCOUNT_15_MIN: z.coerce.number().int().positive().default(10),
  /** Staff login attempts per client address in 15 minutes, whatever the account; more answers 429. */
  LOGIN_MAX_PER_ADDRESS_15_MIN: z.coerce.number().int().positive().default(50),
  /** Comment lines on idle real-time streams keep proxies from closing them. */
  SSE_HEARTBEAT_SECONDS: z.coerce.number().positive().default(20),
  /**
   * Sends staff make to one party (messages, a message sent again, calls) per 10 minutes
   * (docs/security.md, staff send bounds). An honest evening is a call, a call again and a message or
   * two; 6 leaves room for a resend of a failed one. The next answers 429 PARTY_SENDS_LIMITED with
   * Retry-After. Counted in the database, so every instance agrees.
   */
  STAFF_SENDS_PER_PARTY_PER_10_MIN: z.coerce.number().int().positive().default(6),
  /**
   * Staff sends per venue per hour, all parties together: a busy venue seats about 150 parties an
   * hour at its peak, each called once or twice with a message, about 300 sends; 600 is twice that.
   * The next answers 429 VENUE_SENDS_LIMITED with Retry-After.
   */
  STAFF_SENDS_PER_VENUE_PER_HOUR: z.coerce.number().int().positive().default(600),
  /**
   * Open real-time streams per waitlist entry (own and share link together: a family's phones and
   * tabs) and per client address (diners and hosts; room for a mall's shared network). The next one
   * answers 429; a closed stream frees its slot (docs/security.md).
   */
  SSE_MAX_STREAMS_PER_ENTRY: z.coerce.number().int().positive().default(20),
  SSE_MAX_STREAMS_PER_ADDRESS: z.coerce.number().int().positive().default(1000),
  /**
   * The demo (docs/product.md §5, §9): seeds the demo venues and their staff logins, prints the logins,
   * keeps GET /api/dev/outbox, takes unsigned SMS webhooks without SMS_AUTH_TOKEN and push services on
   * any host. `npm start` passes `--demo`, which sets it; every other start is off, whatever NODE_ENV
   * says. Nothing else relaxes a rule (docs/security.md, Safe defaults).
   */
  DEMO: boolFlag.default(false),
  /** Adds GET /api/bench/bare (no store) as the benchmark's baseline; in the demo only. */
  BENCH_BARE_ROUTE: boolFlag.default(false),
  WEB_DIST_DIR: z.string().optional(),
  CORS_ORIGINS: csvOrigins.optional(),
});

/** The chosen providers' settings must be present; each missing one is named. */
function providerIssues(c: z.infer<typeof ConfigSchema>): string[] {
  const issues: string[] = [];
  if (c.EMAIL_PROVIDER === 'smtp' && !c.SMTP_URL) issues.push('  SMTP_URL: required when EMAIL_PROVIDER=smtp');
  if (c.SMS_PROVIDER === 'twilio') {
    for (const name of ['SMS_ACCOUNT_SID', 'SMS_AUTH_TOKEN', 'SMS_FROM'] as const) {
      if (!c[name]) issues.push(`  ${name}: required when SMS_PROVIDER=twilio`);
    }
    // Templates without a WhatsApp sender would fail every WhatsApp send (docs/decisions/029-whatsapp-templates.md).
    if (Object.keys(c.WHATSAPP_TEMPLATES).length > 0 && !c.SMS_WHATSAPP_FROM) {
      issues.push('  SMS_WHATSAPP_FROM: required when WHATSAPP_TEMPLATES names templates and SMS_PROVIDER=twilio');
    }
  }
  return issues;
}

export type Config = z.infer<typeof ConfigSchema> & {
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; schema?: string };
  publicBaseUrl: string;
};

export class ConfigError extends Error {}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * Safe by default (docs/product.md §9): a server that listens beyond loopback, other than the explicit
 * demo, needs an https PUBLIC_BASE_URL (its links go out by SMS and its cookies are Secure there).
 * main.ts calls this before listening; other readers of the configuration (the admin command, tests)
 * never listen and skip it.
 */
export function assertSafeToListen(config: Config): void {
  if (config.DEMO || LOOPBACK_HOSTS.has(config.HOST.toLowerCase())) return;
  if (config.PUBLIC_BASE_URL?.toLowerCase().startsWith('https://')) return;
  throw new ConfigError(
    `Invalid configuration:\n  PUBLIC_BASE_URL: must be an https URL (for example https://vez.example) when HOST (${config.HOST}) is not loopback; set it, or listen on HOST=127.0.0.1, or run the demo with npm start`,
  );
}

/** Parses the environment; throws a ConfigError whose message names every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const result = ConfigSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const missing = providerIssues(result.data);
  if (missing.length > 0) throw new ConfigError(`Invalid configuration:\n${missing.join('\n')}`);
  const c = result.data;
  const dbUrl = c.DATABASE_URL;
  const database: Config['database'] =
    dbUrl && /^postgres(ql)?:\/\//.test(dbUrl)
      ? { kind: 'postgres', url: dbUrl, ...(c.DATABASE_SCHEMA ? { schema: c.DATABASE_SCHEMA } : {}) }
      : { kind: 'sqlite', file: path.resolve(cwd, dbUrl ? dbUrl.slice('file:'.length) : 'data/vez.db') };
  return {
    ...c,
    database,
    publicBaseUrl: (c.PUBLIC_BASE_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
  };
}
