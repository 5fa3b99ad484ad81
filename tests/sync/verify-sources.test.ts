import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SeededRandom } from '../../fixtures/bench/seeded-random.js';
import { applySourceChange, buildSourceWorld, type SourceWorld } from '../../fixtures/sync/source-world.js';
import { runCli, tempDir } from '../helpers/run-cli.js';
import { runWorld } from '../helpers/sync-convergence.js';

describe('etl verify --sources compares the archive with a fresh read of the sources, writing nothing', {
  timeout: 600_000,
}, () => {
  let world: SourceWorld;
  let warehouse: string;
  const verify = (...extra: string[]) =>
    runCli([
      'verify',
      '--sources',
      '--json',
      '--cursor-user-dir',
      world.userDir,
      '--cursor-store-root',
      world.storeRoot,
      '--input',
      world.capture,
      '--backup',
      world.backup,
      '--target',
      `duckdb:${warehouse}`,
      ...extra,
    ]);

  beforeAll(async () => {
    const dir = tempDir('etl-verify-sources-');
    world = buildSourceWorld(join(dir, 'sources'));
    warehouse = join(dir, 'warehouse.duckdb');
    await runWorld(world, warehouse, false);
  });

  it('an archive up to date with its sources verifies (exit 0)', () => {
    const out = verify();
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    const report = JSON.parse(out.stdout).verifySources;
    expect(report).toMatchObject({
      differ: [],
      missing: [],
      extra: [],
      sessionsRead: report.sessionsArchived,
    });
  });

  it('sessions that differ, are missing or are gone are reported by ID (exit 5, no content) and the warehouse is not written', async () => {
    const random = new SeededRandom(7);
    const idOf = (applied: string) => applied.split(': ')[1]!;
    const gone = idOf(applySourceChange(world, 'session-delete', random));
    const updated = idOf(applySourceChange(world, 'bubble-update-same-length', random));
    const added = idOf(applySourceChange(world, 'session-insert', random));
    const before = readFileSync(warehouse);
    const out = verify();
    expect(out.code).toBe(5);
    expect(out.stdout).toBe('');
    const error = JSON.parse(out.stderr).error;
    expect(error.code).toBe('SOURCES_DIFFER_FROM_ARCHIVE');
    expect(error.details.differ).toContain(updated);
    expect(error.details.missing).toContain(added);
    expect(error.details.extra).toEqual([gone]);
    expect(out.stderr).not.toContain('lorem ipsum');
    expect(readFileSync(warehouse).equals(before)).toBe(true);
    // The nightly --since-last run brings the archive back in line with the sources.
    await runWorld(world, warehouse, true);
    expect(verify().code).toBe(0);
  });

  it('--sources and --secrets are separate checks (usage error, exit 2)', () => {
    const out = verify('--secrets');
    expect(out.code).toBe(2);
    expect(JSON.parse(out.stderr).error.code).toBe('USAGE_ERROR');
  });
});
