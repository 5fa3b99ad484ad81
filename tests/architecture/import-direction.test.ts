/**
 * Stages only hand data forward: every relative import in src/ is checked against the allowed
 * directions below (docs/architecture.md, "Import direction"). A wrong-way import fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/** What each folder of src/ may import besides itself and npm packages. */
const ALLOWED: Record<string, readonly string[]> = {
  shared: [],
  extract: ['shared'],
  // The transform consumes what extract hands forward: its contribution types and their decoders.
  transform: ['shared', 'extract', 'schemas'],
  load: ['shared', 'transform', 'schemas'],
  sync: ['shared', 'extract', 'transform', 'load', 'schemas'],
  cli: ['shared', 'extract', 'transform', 'load', 'sync', 'schemas'],
};

interface Edge {
  from: string;
  to: string;
}

/** The area of a repository path: `src/<stage>/…` → the stage; any other top folder → that folder. */
function area(path: string): string {
  const parts = path.split('/');
  return parts[0] === 'src' ? (parts[1] ?? 'src') : (parts[0] ?? '');
}

function violations(edges: readonly Edge[]): string[] {
  return edges
    .filter(({ from, to }) => {
      const source = area(from);
      const target = area(to);
      if (source === target) return false;
      const allowed = ALLOWED[source];
      return allowed === undefined || !allowed.includes(target);
    })
    .map(({ from, to }) => `${from} -> ${to}`);
}

function sourceFiles(): string[] {
  return readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join('src', name).split('\\').join('/'));
}

/** Every relative specifier a file imports or re-exports, static or dynamic, type-only included. */
function importEdges(file: string): Edge[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((imported) => imported.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => ({
      from: file,
      to: relative(ROOT, normalize(join(ROOT, dirname(file), specifier)))
        .split('\\')
        .join('/'),
    }));
}

describe('imports point one way: extract → transform → load, the orchestrator alone knows all', () => {
  const files = sourceFiles();

  it('finds the imports of every stage', () => {
    const edges = files.flatMap(importEdges);
    for (const stage of Object.keys(ALLOWED)) expect(edges.some((e) => area(e.from) === stage)).toBe(true);
    expect(edges.length).toBeGreaterThan(files.length);
  });

  it('no stage imports a stage downstream of it, and shared imports no stage', () => {
    expect(violations(files.flatMap(importEdges))).toEqual([]);
  });

  it('the rule rejects each wrong way: upstream into downstream, shared into a stage, load into extract', () => {
    expect(
      violations([
        { from: 'src/extract/a.ts', to: 'src/transform/b.js' },
        { from: 'src/transform/a.ts', to: 'src/load/b.js' },
        { from: 'src/load/a.ts', to: 'src/extract/b.js' },
        { from: 'src/load/a.ts', to: 'src/sync/b.js' },
        { from: 'src/shared/a.ts', to: 'src/extract/b.js' },
        { from: 'src/sync/a.ts', to: 'src/cli/b.js' },
        { from: 'src/extract/a.ts', to: 'fixtures/b.js' },
      ]),
    ).toHaveLength(7);
    expect(violations([{ from: 'src/sync/a.ts', to: 'src/load/b.js' }])).toEqual([]);
  });
});
