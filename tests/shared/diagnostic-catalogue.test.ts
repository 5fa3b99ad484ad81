import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { byCode } from '../../schemas/render-diagnostics.js';
import { type Diagnostic, diagnostic } from '../../src/shared/diagnostic.js';
import { CATALOGUE, type CatalogueEntry, type Code } from '../../src/shared/diagnostic-catalogue.js';
import { IoError } from '../../src/shared/errors.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CATALOGUE_FILE = 'src/shared/diagnostic-catalogue.ts';
/** The catalogue's entries, one file an area; its keys are definitions, not uses. */
const PARTS_DIR = 'src/shared/diagnostics';
const CODE_LIKE = /^[A-Z][A-Z0-9]+(_[A-Z0-9]+)+$/;
/** Upper-snake strings of src that are not codes: DuckDB's access mode and parsed-SQL node types. */
const NOT_CODES = new Set(['READ_ONLY', 'SELECT_NODE', 'COLUMN_REF', 'SQLITE_IOERR']);

/** Every upper-snake string literal (quotes or a plain template) of a source file; comments are not code. */
function codeLikeLiterals(text: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && CODE_LIKE.test(node.text))
      found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('scanned.ts', text, ts.ScriptTarget.Latest, true));
  return found;
}

function literalsBySourceFile(): Map<string, string[]> {
  const files = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join('src', name).split('\\').join('/'))
    .filter((file) => file !== CATALOGUE_FILE && !file.startsWith(`${PARTS_DIR}/`));
  return new Map(files.map((file) => [file, codeLikeLiterals(readFileSync(join(ROOT, file), 'utf8'))]));
}

describe('the diagnostic catalogue is the one definition of every code', () => {
  const codes = new Set<string>(Object.keys(CATALOGUE));
  const bySourceFile = literalsBySourceFile();

  it('finds code literals in the sources (the scan works)', () => {
    expect([...bySourceFile.values()].flat()).toContain('SOURCE_UNREADABLE');
    expect(codeLikeLiterals("// 'NOT_SCANNED'\nconst c = 'SCANNED_CODE';")).toEqual(['SCANNED_CODE']);
  });

  it('no code-like string outside the catalogue names a code the catalogue does not define', () => {
    const stray = [...bySourceFile].flatMap(([file, literals]) =>
      literals.filter((l) => !codes.has(l) && !NOT_CODES.has(l)).map((l) => `${file}: ${l}`),
    );
    expect(stray).toEqual([]);
  });

  it('every catalogued code is raised somewhere in src (no dead entries)', () => {
    const used = new Set([...bySourceFile.values()].flat());
    expect([...codes].filter((code) => !used.has(code))).toEqual([]);
  });

  it('every entry is a diagnostic, an error or both, with a one-line meaning and remedy', () => {
    for (const [code, entry] of Object.entries(CATALOGUE) as [string, CatalogueEntry][]) {
      expect(entry.severity.length > 0 || entry.exit !== null, code).toBe(true);
      for (const text of [entry.meaning, entry.remedy]) expect(text, code).toMatch(/^[^\n]{10,120}\.$/);
    }
  });

  it('each code stands in exactly one area file, in alphabetical order, and every area is catalogued', async () => {
    const names = readdirSync(join(ROOT, PARTS_DIR)).filter((name) => name !== 'catalogue-entry.ts');
    const inParts: string[] = [];
    for (const name of names) {
      const module: Record<string, object> = await import(join(ROOT, PARTS_DIR, name));
      const keys = Object.values(module).flatMap((part) => Object.keys(part));
      expect(keys, name).toEqual([...keys].sort(byCode));
      inParts.push(...keys);
    }
    expect(names.length).toBeGreaterThan(1);
    expect(inParts.sort(byCode)).toEqual(Object.keys(CATALOGUE).sort(byCode));
  });

  it('codes and details are typed: a misspelled code or an undeclared field does not compile', () => {
    // `npm test` typechecks this file: each directive fails the typecheck if its line compiles.
    const made: Diagnostic[] = [
      diagnostic('COMPOSER_BUBBLE_CORRUPTED', 'x', { count: 1 }),
      // @ts-expect-error a code the catalogue does not define
      diagnostic('COMPOSER_BUBBLE_CORRUPT', 'x', { count: 1 }),
      // @ts-expect-error a field COMPOSER_BUBBLE_CORRUPTED does not declare
      diagnostic('COMPOSER_BUBBLE_CORRUPTED', 'x', { count: 1, path: '/home' }),
      // @ts-expect-error a required field is missing
      diagnostic('COMPOSER_BUBBLE_CORRUPTED', 'x'),
      diagnostic('CAPTURE_PARTIAL_TAIL', 'x'),
    ];
    // @ts-expect-error a field of the wrong type
    const error = new IoError('SOURCE_UNREADABLE', 'x', { sourceKind: 1 });
    const first = made[0]!;
    if (first.code === 'COMPOSER_BUBBLE_CORRUPTED') {
      const count: number = first.details.count;
      expect(count).toBe(1);
    }
    const code: Code = error.code;
    expect(code).toBe('SOURCE_UNREADABLE');
  });
});
