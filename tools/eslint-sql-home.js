// Where SQL may be written (docs/ARCHITECTURE.md habit 3, one repository per table): in a
// `*.repository.ts` file or in `apps/server/src/db/` (connection, dialect, migrations, write batch,
// app keys, transactions), and nowhere else in the server's code. A service hands the executor
// down (`repo.findEntryById(deps.db.kysely, id)`, `inTransaction(deps.db.kysely, …)` from
// db/transaction.ts) but never builds a query with it.
//
// Refused outside those files:
//   - a query builder started on anything: selectFrom, insertInto, updateTable, deleteFrom,
//     replaceInto, mergeInto, with, withRecursive, selectNoFrom (syntactic: the receiver's type is
//     not known here, so `x.selectFrom(…)` is refused whatever `x` is);
//   - `sql` tagged templates and `sql.raw(…)`-style helpers;
//   - using the Kysely instance itself, `….kysely.<member>` (passing `db.kysely` along is fine);
//   - opening a transaction or a connection on it: `.transaction()`, `.startTransaction()`,
//     `.connection()`, and `.executeQuery(…)`;
//   - raw statements on the store's driver: `.prepare(…)` (better-sqlite3), `.query(…)` (pg).
//
// Exempt, by path: tests (`*.test.ts`, `apps/server/test/**`), `bench/`, `e2e/` and `tools/` (they
// set up and inspect stores directly; none of it ships), and everything outside apps/server/src.
// Not exempt: `cli/` and `seed/`, which ask the repositories like any service.
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const serverSrc = path.join(root, 'apps/server/src');

const QUERY_STARTS = new Set([
  'selectFrom',
  'insertInto',
  'updateTable',
  'deleteFrom',
  'replaceInto',
  'mergeInto',
  'with',
  'withRecursive',
  'selectNoFrom',
]);
const STORE_OPENINGS = new Set(['transaction', 'startTransaction', 'connection', 'executeQuery']);
const RAW_STATEMENTS = new Set(['prepare', 'query']);

/** Whether a file may hold SQL: a repository, db/, or no shipped server code at all. */
export function isSqlHome(file) {
  const rel = path.relative(serverSrc, path.resolve(file)).split(path.sep).join('/');
  if (rel.startsWith('..') || path.isAbsolute(rel)) return true;
  return rel.startsWith('db/') || rel.endsWith('.repository.ts') || /\.test\.tsx?$/.test(rel);
}

const where = 'Only repositories and db/ write SQL (docs/ARCHITECTURE.md habit 3, one repository per table)';
const messages = {
  queryBuilder: `${where}: move this .{{name}}(…) into the repository of its table (modules/<area>/<table>.repository.ts) and call that function.`,
  sqlTemplate: `${where}: move this sql template into the repository of its table and call that function.`,
  kyselyMember: `${where}: hand \`.kysely\` to a repository function (or to inTransaction, db/transaction.ts) instead of using .kysely.{{name}} here.`,
  storeOpening: `${where}: open transactions with inTransaction (db/transaction.ts) and pass \`trx\` down to repositories instead of calling .{{name}}() here.`,
  rawStatement: `${where}: raw .{{name}}(…) on the store belongs in db/ or a repository.`,
};

/** The name a member expression reads: `x.name` or `x['name']`; undefined for `x[variable]`. */
const nameOf = (member) =>
  !member.computed ? member.property.name : member.property.type === 'Literal' ? String(member.property.value) : undefined;

export const sqlHome = {
  meta: { type: 'problem', messages, schema: [] },
  create(context) {
    if (isSqlHome(context.filename)) return {};
    return {
      CallExpression(node) {
        const callee = node.callee.type === 'ChainExpression' ? node.callee.expression : node.callee;
        if (callee.type !== 'MemberExpression') return;
        const name = nameOf(callee);
        if (name === undefined) return;
        if (QUERY_STARTS.has(name)) context.report({ node, messageId: 'queryBuilder', data: { name } });
        else if (STORE_OPENINGS.has(name)) context.report({ node, messageId: 'storeOpening', data: { name } });
        else if (RAW_STATEMENTS.has(name)) context.report({ node, messageId: 'rawStatement', data: { name } });
        else if (callee.object.type === 'Identifier' && callee.object.name === 'sql') {
          context.report({ node, messageId: 'sqlTemplate' });
        }
      },
      TaggedTemplateExpression(node) {
        const tag = node.tag.type === 'MemberExpression' ? node.tag.object : node.tag;
        if (tag.type === 'Identifier' && tag.name === 'sql') context.report({ node, messageId: 'sqlTemplate' });
      },
      MemberExpression(node) {
        const object = node.object.type === 'ChainExpression' ? node.object.expression : node.object;
        if (object.type !== 'MemberExpression' || nameOf(object) !== 'kysely') return;
        const name = nameOf(node) ?? '[…]';
        // `.kysely.transaction()` and `.kysely.selectFrom(…)` are reported once, as the call they make.
        const member = node.parent.type === 'ChainExpression' ? node.parent : node;
        const isCalled = member.parent.type === 'CallExpression' && member.parent.callee === member;
        if (isCalled && (QUERY_STARTS.has(name) || STORE_OPENINGS.has(name) || RAW_STATEMENTS.has(name))) return;
        context.report({ node, messageId: 'kyselyMember', data: { name } });
      },
    };
  },
};
