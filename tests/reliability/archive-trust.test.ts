import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LARGE_SESSION_ID,
  LATER_SESSION_ID,
  largeValueCases,
  TRUNCATIONS,
  truncateWarehouse,
  writeLargeValueCorpus,
} from '../../fixtures/hostile/archive-trust-cases.js';
import { BASELINE_SESSION_IDS, userDirUnder } from '../../fixtures/hostile/baseline-corpus.js';
import { tempDir } from '../helpers/run-cli.js';
import { FAULT_POINTS } from './harness/crash-scenario.js';
import { fatalCode, runEtl, tempResidue } from './harness/etl-process.js';
import { SOAK } from './harness/hostile-runner.js';
import { sourceSnapshot } from './harness/source-snapshot.js';
import { probeWarehouse, sessionsChecksum } from './harness/warehouse-probe.js';

/** Value sizes in MiB (60: a message `etl verify` must check); 100 (between jsonlRecordBytes and sqliteValueBytes) in the soak only. */
const SIZES_MIB = SOAK ? [1, 16, 40, 60, 100] : [1, 16, 40, 60];

function runArgs(userDir: string, warehouse: string, extra: string[] = []): string[] {
  return ['run', '--json', '--cursor-user-dir', userDir, '--target', `duckdb:${warehouse}`, ...extra];
}

describe('archive trust: every value the read limits admit loads, verifies, exports and queries (source-read-limits/v1: "sqliteValueBytes 134,217,728 bytes (128 MiB) One SQLite text/blob value")', () => {
  for (const c of largeValueCases(SIZES_MIB)) {
    it(`${c.name}: full run, then a --since-last run adding a session, keep the large session intact`, {
      timeout: 600_000,
    }, () => {
      const root = tempDir('etl-trust-');
      const tmp = join(root, 'tmp');
      const userDir = userDirUnder(join(root, 'case'));
      const warehouse = join(root, 'out', 'w.duckdb');
      writeLargeValueCorpus(userDir, c);
      const timeoutMs = 300_000;
      const sourcesBefore = sourceSnapshot(join(root, 'case'));
      const first = runEtl(runArgs(userDir, warehouse), { tmpDir: tmp, timeoutMs });
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      writeLargeValueCorpus(userDir, c, true);
      const sourcesLater = sourceSnapshot(join(root, 'case'));
      const second = runEtl(runArgs(userDir, warehouse, ['--since-last']), { tmpDir: tmp, timeoutMs });
      expect(second.code).toBe(0);
      expect(sourceSnapshot(join(root, 'case'))).toEqual(sourcesLater);
      expect(sourcesBefore).not.toEqual(sourcesLater);
      const verify = runEtl(['verify', '--target', `duckdb:${warehouse}`], { tmpDir: tmp, timeoutMs });
      expect(verify.code).toBe(0);
      const out = join(root, 'export');
      const exported = runEtl(
        ['export', '--format', 'jsonl', '--out', out, '--target', `duckdb:${warehouse}`],
        {
          tmpDir: tmp,
          timeoutMs,
        },
      );
      expect(exported.code).toBe(0);
      const query = runEtl(
        [
          'query',
          '--json',
          '--target',
          `duckdb:${warehouse}`,
          `SELECT (SELECT count(*) FROM sessions WHERE session_id IN ('${LARGE_SESSION_ID}', '${LATER_SESSION_ID}')) AS n, (SELECT max(greatest(strlen(content), strlen(coalesce(thinking, '')))) FROM messages) AS m, (SELECT max(strlen(coalesce(result, ''))) FROM tool_calls) AS t`,
        ],
        { tmpDir: tmp, timeoutMs },
      );
      expect(query.code).toBe(0);
      const row = (JSON.parse(query.stdout) as { rows: Record<string, number>[] }).rows[0]!;
      expect(row.n).toBe(2);
      expect(Math.max(row.m!, row.t!)).toBeGreaterThanOrEqual(c.mib * 1024 * 1024 - 64);
      expect(tempResidue(tmp)).toEqual([]);
      rmSync(root, { recursive: true, force: true });
    });
  }
});

describe('archive trust: a cut-off warehouse is refused at open, nothing written', () => {
  const root = tempDir('etl-trunc-');
  const userDir = userDirUnder(join(root, 'case'));
  const pristine = join(root, 'pristine', 'w.duckdb');
  let archived: string | null = null;

  function archive(): string {
    if (archived !== null) return archived;
    writeLargeValueCorpus(userDir, { name: 'x', mib: 1, position: 'message-text' });
    const result = runEtl(runArgs(userDir, pristine), { tmpDir: join(root, 'tmp') });
    expect(result.code).toBe(0);
    archived = pristine;
    return archived;
  }

  for (const truncation of TRUNCATIONS) {
    it(`${truncation.name}: run --since-last, verify and export exit 5 (WAREHOUSE_TRUNCATED) and leave the file as it was`, () => {
      const source = archive();
      const dir = join(root, truncation.name);
      const warehouse = join(dir, 'w.duckdb');
      cpSync(source, warehouse);
      truncateWarehouse(warehouse, truncation);
      const damaged = readFileSync(warehouse);
      for (const args of [
        runArgs(userDir, warehouse, ['--since-last']),
        ['verify', '--json', '--target', `duckdb:${warehouse}`],
        ['export', '--json', '--format', 'jsonl', '--out', join(dir, 'x'), '--target', `duckdb:${warehouse}`],
      ]) {
        const result = runEtl(args, { tmpDir: join(dir, 'tmp') });
        expect(result.code, args[0]).toBe(5);
        expect(fatalCode(result)).toBe('WAREHOUSE_TRUNCATED');
      }
      expect(readFileSync(warehouse).equals(damaged)).toBe(true);
      expect(readdirSync(dir).sort()).toEqual(['tmp', 'w.duckdb']);
    });
  }
});

describe('archive trust: a failed final checkpoint is WAREHOUSE_WRITE_FAILED (exit 4), never "committed"', () => {
  it('a file-size limit at the current size makes the closing checkpoint fail with EFBIG; the next run converges', async () => {
    const root = tempDir('etl-ckpt-');
    const userDir = userDirUnder(join(root, 'case'));
    const warehouse = join(root, 'out', 'w.duckdb');
    writeLargeValueCorpus(userDir, { name: 'x', mib: 1, position: 'message-text' });
    expect(runEtl(runArgs(userDir, warehouse), { tmpDir: join(root, 'tmp') }).code).toBe(0);
    const before = await sessionsChecksum(warehouse, BASELINE_SESSION_IDS);
    writeLargeValueCorpus(userDir, { name: 'x', mib: 2, position: 'tool-result' }, true);
    const size = statSync(warehouse).size;
    const limited = runEtl(runArgs(userDir, warehouse), {
      tmpDir: join(root, 'tmp'),
      // SIGXFSZ ignored, so the write past the limit fails with EFBIG instead of killing the run.
      command: ['sh', '-c', `trap '' XFSZ; exec prlimit --fsize=${size} "$@"`, 'sh'],
    });
    expect(limited.code).toBe(4);
    expect(fatalCode(limited)).toBe('WAREHOUSE_WRITE_FAILED');
    expect(JSON.parse(limited.stderr).error.details).toMatchObject({
      operation: 'checkpoint',
      reason: 'EFBIG',
    });
    expect(limited.stdout).toBe('');
    const next = runEtl(runArgs(userDir, warehouse), { tmpDir: join(root, 'tmp') });
    expect(next.code).toBe(0);
    const probe = await probeWarehouse(warehouse, BASELINE_SESSION_IDS);
    expect(probe.report.problems).toEqual([]);
    expect(probe.checksum).toBe(before);
    expect(tempResidue(join(root, 'tmp'))).toEqual([]);
  });
});

describe('archive trust: storage refusals around the run are typed exits 4, never INTERNAL_ERROR', () => {
  /** The 1-based number of the last fault point with this label in a clean run under the preload. */
  function pointNumber(args: string[], root: string, label: string, fsRoot: string): number {
    const log = join(root, 'points.log');
    const clean = runEtl(args, {
      tmpDir: join(root, 'tmp'),
      preloads: [FAULT_POINTS],
      env: { ETL_FAULT_LOG: log, ETL_FAULT_FS_ROOT: fsRoot },
    });
    expect(clean.code).toBe(0);
    const labels = readFileSync(log, 'utf8').trim().split('\n');
    rmSync(log);
    expect(labels).toContain(label);
    return labels.lastIndexOf(label) + 1;
  }

  for (const [label, errno, operation] of [
    ['duckdb CHECKPOINT', 'ENOSPC', 'checkpoint'],
    ['fs open lock', 'ENOSPC', 'lock'],
    ['fs open lock', 'EIO', 'lock'],
  ] as const) {
    it(`${errno} at ${label}: WAREHOUSE_WRITE_FAILED (${operation}), archived sessions unchanged, verify passes`, async () => {
      const root = tempDir('etl-refuse-');
      const userDir = userDirUnder(join(root, 'case'));
      const out = join(root, 'out');
      const warehouse = join(out, 'w.duckdb');
      writeLargeValueCorpus(userDir, { name: 'x', mib: 1, position: 'message-text' });
      expect(runEtl(runArgs(userDir, warehouse), { tmpDir: join(root, 'tmp') }).code).toBe(0);
      const before = await sessionsChecksum(warehouse, BASELINE_SESSION_IDS);
      writeLargeValueCorpus(userDir, { name: 'x', mib: 1, position: 'thinking' }, true);
      const copy = join(root, 'probe', 'w.duckdb');
      cpSync(out, join(root, 'probe'), { recursive: true });
      const at = pointNumber(runArgs(userDir, copy), root, label, join(root, 'probe'));
      const failed = runEtl(runArgs(userDir, warehouse), {
        tmpDir: join(root, 'tmp'),
        preloads: [FAULT_POINTS],
        env: { ETL_FAULT_AT: String(at), ETL_FAULT_ERROR: errno, ETL_FAULT_FS_ROOT: out },
      });
      expect(failed.code).toBe(4);
      expect(fatalCode(failed)).toBe('WAREHOUSE_WRITE_FAILED');
      expect(JSON.parse(failed.stderr).error.details).toMatchObject({ operation, reason: errno });
      const probe = await probeWarehouse(warehouse, BASELINE_SESSION_IDS);
      expect(probe.report.problems).toEqual([]);
      expect(probe.checksum).toBe(before);
      expect(tempResidue(join(root, 'tmp'))).toEqual([]);
    });
  }

  it('a parquet: target naming a regular file: run and query exit 4 (WAREHOUSE_UNREADABLE), the file untouched', () => {
    const root = tempDir('etl-pfile-');
    const userDir = userDirUnder(join(root, 'case'));
    writeLargeValueCorpus(userDir, { name: 'x', mib: 1, position: 'message-text' });
    const file = join(root, 'out', 'dataset');
    mkdirSync(join(root, 'out'));
    writeFileSync(file, 'not a dataset\n');
    for (const args of [
      ['run', '--json', '--cursor-user-dir', userDir, '--target', `parquet:${file}`],
      ['query', '--json', '--target', `parquet:${file}`, 'SELECT 1'],
    ]) {
      const result = runEtl(args, { tmpDir: join(root, 'tmp') });
      expect(result.code, args[0]).toBe(4);
      expect(fatalCode(result)).toBe('WAREHOUSE_UNREADABLE');
    }
    expect(readFileSync(file, 'utf8')).toBe('not a dataset\n');
    expect(readdirSync(join(root, 'out'))).toEqual(['dataset']);
  });
});
