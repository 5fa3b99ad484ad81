import { spawn, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSampleCorpus } from '../../../fixtures/sample/sample-corpus.js';
import { processStartTime } from '../../../src/shared/process/process-identity.js';
import { acquireRunLock, lockPathFor } from '../../../src/shared/process/run-lock.js';
import { runCli, tempDir } from '../../helpers/run-cli.js';

function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

function writeLock(warehouse: string, pid: number): void {
  writeFileSync(
    lockPathFor(warehouse),
    JSON.stringify({ v: 1, pid, startTicks: Number(processStartTime(pid)), startedAtMs: 0 }),
  );
}

describe('single writer: the run lock', () => {
  it('a second lock on the same warehouse fails at once with ETL_LOCKED naming the holder pid', () => {
    const warehouse = join(tempDir(), 'w.duckdb');
    const lock = acquireRunLock(warehouse);
    try {
      expect(() => acquireRunLock(warehouse)).toThrowError(
        expect.objectContaining({
          code: 'ETL_LOCKED',
          exitCode: 4,
          details: expect.objectContaining({ holderPid: process.pid }),
        }),
      );
    } finally {
      lock.release();
    }
    expect(existsSync(lockPathFor(warehouse))).toBe(false);
  });

  it('a lock left by a dead process is stale and taken over', () => {
    const warehouse = join(tempDir(), 'w.duckdb');
    writeLock(warehouse, deadPid());
    const lock = acquireRunLock(warehouse);
    lock.release();
    expect(existsSync(lockPathFor(warehouse))).toBe(false);
  });

  it('etl run while another live run holds the lock exits 4 with ETL_LOCKED and the holder pid, writing nothing', () => {
    const warehouse = join(tempDir(), 'w.duckdb');
    writeLock(warehouse, process.pid);
    const userDir = buildSampleCorpus(join(tempDir(), 'cursor')).userDir;
    const result = runCli(['run', '--json', '--cursor-user-dir', userDir, '--target', `duckdb:${warehouse}`]);
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    const error = JSON.parse(result.stderr).error;
    expect(error.code).toBe('ETL_LOCKED');
    expect(error.details.holderPid).toBe(process.pid);
    expect(existsSync(warehouse)).toBe(false);
  });

  it('a DuckDB file held by another process (an analyst GUI) gives the retryable WAREHOUSE_BUSY, not a stack trace', async () => {
    const warehouse = join(tempDir(), 'w.duckdb');
    const holder = spawn(
      process.execPath,
      [
        '--expose-gc',
        '--input-type=module',
        '-e',
        `import { DuckDBInstance } from '@duckdb/node-api';
         const db = await DuckDBInstance.create(${JSON.stringify(warehouse)});
         const connection = await db.connect();
         await connection.run('CREATE TABLE t (x INTEGER)');
         // The timer holds both: a collected instance closes its file and drops the lock,
         // so a collection runs before 'ready' to prove the hold survives one.
         setInterval(() => [db, connection], 1000);
         setTimeout(() => { globalThis.gc(); process.stdout.write('ready\\n'); }, 0);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
      const userDir = buildSampleCorpus(join(tempDir(), 'cursor')).userDir;
      const result = runCli([
        'run',
        '--json',
        '--cursor-user-dir',
        userDir,
        '--target',
        `duckdb:${warehouse}`,
      ]);
      expect(result.code).toBe(4);
      const error = JSON.parse(result.stderr).error;
      expect(error.code).toBe('WAREHOUSE_BUSY');
      expect(error.details.holderPid).toBe(holder.pid);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    } finally {
      holder.kill('SIGKILL');
    }
  });
});
