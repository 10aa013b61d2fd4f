import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The lint rule of docs/ARCHITECTURE.md habit 3 (tools/eslint-sql-home.js), run through the repo's
// own ESLint config, to show it fails where it should and passes where SQL belongs.

const root = path.resolve(import.meta.dirname, '../../..');
const queueDir = path.join(root, 'apps/server/src/modules/queue');

const query = `import type { Db } from '../../db/connect.js';

export const listEntries = (db: Db) => db.kysely.selectFrom('entries').selectAll().execute();
`;

let eslint: ESLint;

async function sqlHomeErrors(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'vez/sql-home').map((m) => m.message);
}

describe('SQL only in repositories and db/ (tools/eslint-sql-home.js)', () => {
  beforeAll(() => {
    eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, 'eslint.config.js') });
  });

  it('refuses a query built outside a repository', async () => {
    const errors = await sqlHomeErrors(query, path.join(queueDir, 'entry-list.service.ts'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/Only repositories and db\/ write SQL .*selectFrom/);
  });

  it('accepts the same query in a *.repository.ts and in db/', async () => {
    expect(await sqlHomeErrors(query, path.join(queueDir, 'entry-list.repository.ts'))).toEqual([]);
    expect(await sqlHomeErrors(query.replace('../../db/', './'), path.join(root, 'apps/server/src/db/entry-list.ts'))).toEqual([]);
  });

  it('refuses sql templates, transactions, the Kysely instance and raw statements outside a repository', async () => {
    const code = `import type { Db } from '../../db/connect.js';
declare const sql: (parts: TemplateStringsArray) => unknown;
declare const handle: { prepare(text: string): unknown };

export async function work(db: Db) {
  sql\`select 1\`;
  await db.kysely.transaction().execute(async () => undefined);
  db.kysely.schema.createTable('x');
  handle.prepare('select 1');
  const trx = db.kysely;
  await trx.insertInto('venues').values({} as never).execute();
}
`;
    const errors = await sqlHomeErrors(code, path.join(queueDir, 'work.service.ts'));
    expect(errors).toHaveLength(5);
  });

  it('lets a service hand the executor down to a repository', async () => {
    const code = `import type { Db } from '../../db/connect.js';
import { findEntryById } from './entries.repository.js';

export const findEntry = (db: Db, id: string) => findEntryById(db.kysely, id);
`;
    expect(await sqlHomeErrors(code, path.join(queueDir, 'entry-find.service.ts'))).toEqual([]);
  });

  it('leaves tests, bench, e2e and tools alone', async () => {
    for (const file of [
      'apps/server/src/modules/queue/entry-list.test.ts',
      'apps/server/test/entry-list.ts',
      'bench/entry-list.ts',
      'e2e/entry-list.ts',
    ]) {
      expect(await sqlHomeErrors(query, path.join(root, file))).toEqual([]);
    }
  });
});
