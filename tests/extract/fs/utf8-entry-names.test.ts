import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listUtf8Entries } from '../../../src/extract/fs/utf8-entry-names.js';
import { tempDir } from '../../helpers/run-cli.js';

describe('entry names: invalid encoding "is not guessed, transcoded, or replacement-decoded"', () => {
  it('keeps every entry when no listed name holds U+FFFD', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'a'));
    writeFileSync(join(dir, 'b é ✓'), '');
    const { entries, notUtf8 } = listUtf8Entries(dir);
    expect(entries.map((e) => e.name).sort()).toEqual(['a', 'b é ✓']);
    expect(notUtf8).toBe(0);
  });

  it('drops and counts names whose bytes are not UTF-8, keeping a name that really holds U+FFFD', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'real\uFFFD'), '');
    writeFileSync(Buffer.concat([Buffer.from(`${dir}/bad`), Buffer.from([0xff])]), '');
    writeFileSync(Buffer.concat([Buffer.from(`${dir}/cut`), Buffer.from([0xe2, 0x82])]), '');
    writeFileSync(join(dir, 'plain'), '');
    expect(readdirSync(dir)).toHaveLength(4);
    const { entries, notUtf8 } = listUtf8Entries(dir);
    expect(entries.map((e) => e.name).sort()).toEqual(['plain', 'real\uFFFD']);
    expect(notUtf8).toBe(2);
  });
});
