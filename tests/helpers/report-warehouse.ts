/** The report corpus (fixtures/report) loaded through the built CLI into a DuckDB file or a Parquet dataset. */
import { join } from 'node:path';
import { buildReportCorpus } from '../../fixtures/report/report-corpus.js';
import { runCli, tempDir } from './run-cli.js';

export function loadReportCorpus(kind: 'duckdb' | 'parquet', extra: readonly string[] = []): string {
  const root = tempDir('etl-report-');
  const { userDir } = buildReportCorpus(join(root, 'cursor'));
  const target = kind === 'duckdb' ? `duckdb:${join(root, 'w.duckdb')}` : `parquet:${join(root, 'dataset')}`;
  const run = runCli([
    'run',
    '--json',
    '--cursor-user-dir',
    userDir,
    '--cursor-store-root',
    join(root, 'cursor', 'store'),
    ...extra,
    '--target',
    target,
  ]);
  if (run.code !== 0) throw new Error(`report corpus run failed: ${run.stderr}`);
  return target;
}
