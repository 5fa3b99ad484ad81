import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { preservingTimes } from '../../../fixtures/sync/source-world.js';
import { fingerprintFile } from '../../../src/extract/fs/source-identity.js';
import { tempDir } from '../../helpers/run-cli.js';

describe('source fingerprints', () => {
  it('an empty -wal (what a read-only open leaves behind) fingerprints like no -wal at all', () => {
    const db = join(tempDir(), 'store.db');
    writeFileSync(db, 'main file bytes');
    const before = fingerprintFile(db, ['-wal']);
    expect(before.sidecars).toEqual({ '-wal': null });
    writeFileSync(`${db}-wal`, '');
    expect(fingerprintFile(db, ['-wal'])).toEqual(before);
  });

  it('a -wal holding frames is a change, and so is its later truncation', () => {
    const db = join(tempDir(), 'store.db');
    writeFileSync(db, 'main file bytes');
    const clean = fingerprintFile(db, ['-wal']);
    writeFileSync(`${db}-wal`, 'frames');
    const withFrames = fingerprintFile(db, ['-wal']);
    expect(withFrames.sidecars?.['-wal']).toMatchObject({ size: 6 });
    expect(withFrames).not.toEqual(clean);
    truncateSync(`${db}-wal`, 0);
    expect(fingerprintFile(db, ['-wal'])).not.toEqual(withFrames);
  });

  it('a file replaced in place by one of the same size and mtime (cp -p) is a change', async () => {
    const db = join(tempDir(), 'state.vscdb');
    writeFileSync(db, 'main file bytes');
    const before = fingerprintFile(db, ['-wal']);
    // The change time has the kernel's clock tick: let one pass so the rewrite cannot share it.
    await new Promise((resolve) => setTimeout(resolve, 20));
    preservingTimes(db, () => writeFileSync(db, 'MAIN FILE BYTES'));
    const after = fingerprintFile(db, ['-wal']);
    expect([after.size, after.mtimeNs, after.ino]).toEqual([before.size, before.mtimeNs, before.ino]);
    expect(after).not.toEqual(before);
  });
});
