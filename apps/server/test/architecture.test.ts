import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM tool without type declarations
import { findCycle, mermaidOf, moduleGraph } from '../../../tools/module-graph.js';

const architecture = path.resolve(import.meta.dirname, '../../../docs/ARCHITECTURE.md');

describe('the module graph (docs/ARCHITECTURE.md, Modules)', () => {
  it('has no cycle between server modules', () => {
    expect(findCycle(moduleGraph())).toBeUndefined();
  });

  it('is the graph the code has (run `node tools/module-graph.js` and paste its output when it changes)', () => {
    const text = fs.readFileSync(architecture, 'utf8');
    const block = text.split('<!-- module-graph:start -->')[1]?.split('<!-- module-graph:end -->')[0]?.trim();
    expect(block).toBe(mermaidOf(moduleGraph()));
  });

  it('keeps the realtime transport on the queue and venues only', () => {
    expect(moduleGraph().get('realtime')).toEqual(['queue', 'venues']);
  });
});

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** The backticked repo paths of docs/ARCHITECTURE.md's "Where to change what" table. */
function pathsOfWhereToChangeTable(): string[] {
  const text = fs.readFileSync(architecture, 'utf8');
  const section = text.split('## Where to change what')[1]?.split('\n## ')[0] ?? '';
  const rows = section.split('\n').filter((line) => line.startsWith('|') && !line.startsWith('|---'));
  const cells = rows.slice(1).map((row) => row.split('|')[2] ?? '');
  const quoted = cells.flatMap((cell) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!));
  // A path has a slash and no spaces, braces or ellipsis (`PATCH …/settings` is a route, `{hold}` a variable).
  return quoted.filter((q) => q.includes('/') && !/[\s{}…<>]/.test(q));
}

describe('the "where to change what" map (docs/ARCHITECTURE.md)', () => {
  it('names at least the rows every newcomer asks for', () => {
    const text = fs.readFileSync(architecture, 'utf8').split('## Where to change what')[1] ?? '';
    for (const row of ['the call SMS text', 'the hold window', 'what a host card shows', "a join's estimate", 'a new venue setting'])
      expect(text).toContain(`| ${row}`);
    expect(pathsOfWhereToChangeTable().length).toBeGreaterThan(20);
  });

  it('names only files and folders that exist', () => {
    const missing = pathsOfWhereToChangeTable().filter((p) => !fs.existsSync(path.join(repoRoot, p)));
    expect(missing).toEqual([]);
  });
});

/** Production source files (tests aside) whose comments may cite the repo's documents. */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full);
    return /\.(ts|tsx|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('documents cited by the code (docs/ARCHITECTURE.md habit 12)', () => {
  const files = ['apps/server/src', 'packages/contract/src', 'apps/web/src'].flatMap((d) => sourceFiles(path.join(repoRoot, d)));
  const decisions = fs.readdirSync(path.join(repoRoot, 'docs/decisions'));
  const product = fs.readFileSync(path.join(repoRoot, 'docs/product.md'), 'utf8');
  const sections = new Set([...product.matchAll(/^## (\d+)\./gm)].map((m) => m[1]));

  it('cites documents, decisions and sections of docs/product.md the repo has', () => {
    const dangling: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      const where = path.relative(repoRoot, file);
      // A repo path (not the tail of a URL or a route): docs/…, a decision by its number or its file.
      for (const m of text.matchAll(/(?<![\w/.])docs\/[\w./-]*\w/g)) {
        const cited = m[0];
        const decision = /^docs\/decisions\/(\d{3})/.exec(cited)?.[1];
        const exists = decision ? decisions.some((d) => d.startsWith(decision)) : fs.existsSync(path.join(repoRoot, cited));
        if (!exists) dangling.push(`${where}: ${cited}`);
      }
      for (const m of text.matchAll(/[Dd]ecision (\d{3})\b/g))
        if (!decisions.some((d) => d.startsWith(m[1]!))) dangling.push(`${where}: ${m[0]}`);
      for (const m of text.matchAll(/docs\/product\.md §(\d+)/g)) if (!sections.has(m[1])) dangling.push(`${where}: ${m[0]}`);
      // Documents the repo never had: an outside spec, "Decisions §N".
      for (const m of text.matchAll(/Decisions §\d+|\bspec\b/gi)) dangling.push(`${where}: ${m[0]}`);
    }
    expect(dangling).toEqual([]);
  });
});
