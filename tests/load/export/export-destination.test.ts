/**
 * Exports are all-or-nothing and ask before overwriting: a second export into a used --out, or onto
 * an existing file, is refused unless --overwrite; a failing export leaves the previous one byte
 * for byte; storage refusals are typed. Driven over every format.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../../helpers/run-cli.js';
import { loadSample } from '../../helpers/sample-warehouse.js';

const FORMATS = ['parquet', 'arrow', 'jsonl', 'archive-jsonl'] as const;

function snapshot(path: string): Record<string, string> {
  try {
    return Object.fromEntries(
      readdirSync(path).map((name) => [name, readFileSync(join(path, name)).toString('base64')]),
    );
  } catch {
    return { '': readFileSync(path).toString('base64') };
  }
}

describe('exports are atomic and ask before overwriting', () => {
  let target: string;
  beforeAll(() => {
    target = loadSample('duckdb').target;
  });
  const exportTo = (format: string, out: string, extra: string[] = []) =>
    runCli(['export', '--json', '--format', format, '--out', out, '--target', target, ...extra]);

  for (const format of FORMATS) {
    it(`${format}: a second export is refused, --overwrite replaces, a failing one leaves the previous intact`, () => {
      const parent = tempDir();
      const out = join(parent, format === 'archive-jsonl' ? 'sessions.jsonl' : 'export');
      expect(exportTo(format, out).code).toBe(0);
      const first = snapshot(out);
      const again = exportTo(format, out, ['--where', 'false']);
      expect(again.code).toBe(2);
      expect(JSON.parse(again.stderr).error.code).toBe('EXPORT_OUT_EXISTS');
      expect(snapshot(out)).toEqual(first);
      const failing = exportTo(format, out, ['--overwrite', '--where', "error('boom') IS NULL"]);
      expect(failing.code).not.toBe(0);
      expect(snapshot(out)).toEqual(first);
      expect(exportTo(format, out, ['--overwrite', '--where', 'false']).code).toBe(0);
      expect(snapshot(out)).not.toEqual(first);
      // No staging residue beside --out, whatever happened.
      expect(readdirSync(parent)).toEqual([out.slice(parent.length + 1)]);
    });
  }

  it('archive-jsonl onto an unrelated file is refused and the file is untouched; onto a directory too', () => {
    const dir = tempDir();
    const mine = join(dir, 'mine.jsonl');
    writeFileSync(mine, 'my notes\n');
    const result = exportTo('archive-jsonl', mine);
    expect({ code: result.code, error: JSON.parse(result.stderr).error.code }).toEqual({
      code: 2,
      error: 'EXPORT_OUT_EXISTS',
    });
    expect(readFileSync(mine, 'utf8')).toBe('my notes\n');
    const intoDir = exportTo('archive-jsonl', dir);
    expect(JSON.parse(intoDir.stderr).error).toMatchObject({
      code: 'EXPORT_OUT_EXISTS',
      details: { found: 'directory' },
    });
  });

  it('a table export onto a file is refused; an existing empty directory is used', () => {
    const dir = tempDir();
    const file = join(dir, 'file');
    writeFileSync(file, 'x');
    expect(JSON.parse(exportTo('jsonl', file).stderr).error.details.found).toBe('file');
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    expect(exportTo('jsonl', empty).code).toBe(0);
    expect(readdirSync(empty).sort()).toContain('sessions.jsonl');
  });
});
