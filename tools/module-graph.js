// The server's module graph (apps/server/src/modules/<name>), read from the imports: printed, and
// a non-zero exit on a cycle between modules (file-level cycles are madge's, `npm run cycles`).
// docs/ARCHITECTURE.md, Modules, holds its output; apps/server/test/architecture.test.ts checks it.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', 'apps/server/src');
const modulesDir = path.join(root, 'modules');

/** module -> the other modules it imports (value imports and type imports alike), sorted. */
export function moduleGraph() {
  const graph = new Map();
  for (const name of fs.readdirSync(modulesDir).sort()) {
    const dir = path.join(modulesDir, name);
    if (!fs.statSync(dir).isDirectory()) continue;
    const uses = new Set();
    for (const file of fs.readdirSync(dir)) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
      const text = fs.readFileSync(path.join(dir, file), 'utf8');
      for (const match of text.matchAll(/from '(\.\.?\/[^']+)'/g)) {
        const target = path.relative(modulesDir, path.resolve(dir, match[1])).split(path.sep);
        if (target[0] !== '..' && target.length > 1 && target[0] !== name) uses.add(target[0]);
      }
    }
    graph.set(name, [...uses].sort());
  }
  return graph;
}

/** The first cycle found, as a list of modules, or undefined. */
export function findCycle(graph) {
  const state = new Map();
  const stack = [];
  const visit = (node) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') return [...stack.slice(stack.indexOf(next)), next];
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of graph.keys()) {
    if (!state.has(node)) {
      const found = visit(node);
      if (found) return found;
    }
  }
  return undefined;
}

/** The graph as a Mermaid block (what docs/ARCHITECTURE.md shows). */
export function mermaidOf(graph) {
  const lines = ['```mermaid', 'graph LR'];
  for (const [name, uses] of graph) {
    if (uses.length === 0) lines.push(`  ${name}`);
    for (const use of uses) lines.push(`  ${name} --> ${use}`);
  }
  lines.push('```');
  return lines.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const graph = moduleGraph();
  console.log(mermaidOf(graph));
  const cycle = findCycle(graph);
  if (cycle) {
    console.error(`Modules import each other in a cycle: ${cycle.join(' -> ')}. Move the shared piece into the module both use.`);
    process.exit(1);
  }
  console.error('No cycle between server modules.');
}
