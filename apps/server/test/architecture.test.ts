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
