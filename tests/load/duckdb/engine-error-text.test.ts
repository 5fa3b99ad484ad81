import { describe, expect, it } from 'vitest';
import { engineErrorLine, isSandboxRefusal } from '../../../src/load/duckdb/engine-error-text.js';

describe('DuckDB error text on a CLI error: no values, paths or URLs from the query or the data', () => {
  it.each([
    ["Conversion Error: Could not convert string 'my secret '' text' to INT32", "string '…' to INT32"],
    ['Catalog Error: Table with name /tmp/x/outside.txt does not exist!', 'name … does not exist!'],
    ['Invalid Input Error: Error when sniffing file "/tmp/w.duckdb".', 'file "…".'],
    ['IO Error: Cannot open "s3://bucket/k" now', 'open "…" now'],
    ['Catalog Error: Table with name C:\\Users\\me\\x.csv does not exist!', 'name … does not exist!'],
    ['Binder Error: Referenced column "titel" not found', 'column "titel" not found'],
    ['Parser Error: syntax error at or near "selec"\nLINE 1: selec 1', 'near "selec"'],
  ])('%s', (message, kept) => {
    const line = engineErrorLine(new Error(message));
    expect(line).toContain(kept);
    expect(line).not.toMatch(/secret|\/tmp|bucket|Users|LINE 1/);
  });

  it('only DuckDB permission errors are sandbox refusals', () => {
    expect(isSandboxRefusal(new Error('Permission Error: Cannot access file "/x"'))).toBe(true);
    expect(isSandboxRefusal(new Error('Binder Error: Permission Error'))).toBe(false);
    expect(isSandboxRefusal('Permission Error:')).toBe(false);
  });
});
