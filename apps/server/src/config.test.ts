import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, assertSafeToListen, loadConfig } from './config.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The message loadConfig throws for `env`, or a failure when it does not throw a ConfigError. */
function errorOf(env: Record<string, string>): string {
  try {
    loadConfig(env, '/srv/vez');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('configuration', () => {
  it('starts with documented defaults when nothing is set', () => {
    const c = loadConfig({}, '/srv/vez');
    expect(c.PORT).toBe(3000);
    expect(c.database).toEqual({ kind: 'sqlite', file: '/srv/vez/data/vez.db' });
    expect(c.publicBaseUrl).toBe('http://localhost:3000');
    expect(c.RETENTION_HOURS).toBe(24);
    expect(c.RETENTION_OPEN_MAX_HOURS).toBe(24);
    expect(c.DEMO).toBe(false);
    expect(c.RATE_LIMIT_JOINS_PER_10_MIN).toBeGreaterThanOrEqual(300);
    expect(c.BENCH_BARE_ROUTE).toBe(false);
  });

  it('reads DATABASE_URL as a SQLite file or a PostgreSQL URL', () => {
    expect(loadConfig({ DATABASE_URL: 'file:./tmp/x.db' }, '/srv/vez').database).toEqual({ kind: 'sqlite', file: '/srv/vez/tmp/x.db' });
    expect(loadConfig({ DATABASE_URL: 'file:/var/lib/vez.db' }, '/srv/vez').database).toEqual({ kind: 'sqlite', file: '/var/lib/vez.db' });
    expect(loadConfig({ DATABASE_URL: 'postgres://u@db:5432/vez' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@db:5432/vez',
    });
    expect(loadConfig({ DATABASE_URL: 'postgresql://u@db/vez' }).database.kind).toBe('postgres');
  });

  it('keeps the tables in DATABASE_SCHEMA on PostgreSQL when set, and refuses a name that is not a plain identifier', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@db/vez', DATABASE_SCHEMA: 'vez_prod' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@db/vez',
      schema: 'vez_prod',
    });
    expect(errorOf({ DATABASE_URL: 'postgres://u@db/vez', DATABASE_SCHEMA: 'x; drop table entries' })).toMatch(/DATABASE_SCHEMA: /);
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', PUBLIC_BASE_URL: '' }, '/srv/vez').PORT).toBe(3000);
  });

  it('drops the trailing slash of PUBLIC_BASE_URL', () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://vez.example/' }).publicBaseUrl).toBe('https://vez.example');
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', '3000.5'],
    ['DATABASE_URL', 'mysql://db/vez'],
    ['DATABASE_URL', '/var/lib/vez.db'],
    ['PUBLIC_BASE_URL', 'vez.example'],
    ['SMART_LINK_BASE_URL', 'not a url'],
    ['SMART_LINK_BASE_URL', 'javascript:alert(1)'],
    ['SMART_LINK_BASE_URL', 'data:text/html,hi'],
    ['LOG_LEVEL', 'loud'],
    ['RETENTION_HOURS', '0'],
    ['RETENTION_OPEN_MAX_HOURS', '-1'],
    ['RATE_LIMIT_JOINS_PER_10_MIN', 'many'],
    ['TRUST_PROXY', 'yes'],
    ['REDIS_URL', 'localhost:6379'],
  ])('refuses %s=%s with a message naming the variable', (name, value) => {
    const message = errorOf({ [name]: value });
    expect(message).toMatch(new RegExp(`^\\s+${name}: `, 'm'));
  });

  it('is production unless NODE_ENV says otherwise (docs/security.md, Safe defaults)', () => {
    expect(loadConfig({}).NODE_ENV).toBe('production');
    expect(loadConfig({ NODE_ENV: '' }).NODE_ENV).toBe('production');
  });

  it('is not the demo unless DEMO (or --demo) says so, whatever NODE_ENV', () => {
    for (const NODE_ENV of ['development', 'test', 'production']) expect(loadConfig({ NODE_ENV }).DEMO).toBe(false);
    expect(loadConfig({ DEMO: '1', NODE_ENV: 'production' }).DEMO).toBe(true);
  });

  describe('listening beyond loopback (docs/product.md §9)', () => {
    const listenError = (env: Record<string, string>) => {
      try {
        assertSafeToListen(loadConfig(env));
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      return undefined;
    };

    it.each<Record<string, string>>([{}, { HOST: '0.0.0.0' }, { HOST: '::' }, { HOST: '10.0.0.5', PUBLIC_BASE_URL: 'http://vez.example' }])(
      'refuses %o without an https PUBLIC_BASE_URL, naming the variable',
      (env) => {
        expect(listenError(env)).toMatch(/^\s+PUBLIC_BASE_URL: must be an https URL/m);
      },
    );

    it.each<Record<string, string>>([
      { HOST: '127.0.0.1' },
      { HOST: '::1' },
      { HOST: 'localhost' },
      { HOST: '0.0.0.0', PUBLIC_BASE_URL: 'https://vez.example' },
      { HOST: '0.0.0.0', DEMO: '1' },
    ])('starts with %o', (env) => {
      expect(listenError(env)).toBeUndefined();
    });
  });

  it('names every bad variable at once', () => {
    const message = errorOf({ PORT: 'abc', PUBLIC_BASE_URL: 'nope', DATABASE_URL: 'mysql://x' });
    for (const name of ['PORT', 'PUBLIC_BASE_URL', 'DATABASE_URL']) expect(message).toContain(`${name}:`);
  });

  it('stops the real server before it listens, naming the variable', { timeout: 90_000 }, () => {
    const child = spawnSync(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: repoRoot,
      env: { ...process.env, PORT: 'not-a-port', DATABASE_URL: 'mysql://db/vez', LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(child.status).toBe(78);
    expect(child.stderr).toContain('PORT:');
    expect(child.stderr).toContain('DATABASE_URL:');
    expect(child.stdout).not.toContain('Vez is running');
  });
});
