import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { globalDbPath, userDirUnder, writeBaselineGlobalDb } from '../../fixtures/hostile/baseline-corpus.js';
import { openSqliteSnapshot } from '../../src/extract/sqlite/sqlite-snapshot.js';
import { PrivateTempDir } from '../../src/shared/temp/private-temp-dir.js';
import { tempDir } from '../helpers/run-cli.js';

describe('private temp data is owner-only (POSIX 0700 directory, 0600 files) and removed', () => {
  it('a plaintext SQLite snapshot copy lives in a 0700 directory as a 0600 file, even under a permissive umask', async () => {
    const root = tempDir('etl-temp-perm-');
    const userDir = userDirUnder(root);
    writeBaselineGlobalDb(userDir).close();
    const previous = process.umask(0o000);
    const temp = PrivateTempDir.create(root);
    try {
      const snapshot = await openSqliteSnapshot(globalDbPath(userDir), temp, 'composer');
      expect(snapshot.method).toBe('serialized-copy');
      expect(statSync(temp.path).mode & 0o777).toBe(0o700);
      const files = readdirSync(temp.path);
      expect(files.length).toBeGreaterThanOrEqual(2);
      for (const name of files)
        expect({ name, mode: statSync(join(temp.path, name)).mode & 0o777 }).toEqual({ name, mode: 0o600 });
      snapshot.close();
    } finally {
      process.umask(previous);
      temp.dispose();
    }
    expect(readdirSync(root).filter((name) => name.startsWith('cursor-etl-'))).toEqual([]);
  });
});
