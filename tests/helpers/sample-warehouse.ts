/** Builds the bundled sample Cursor data and loads it through the built CLI into a target. */
import { join } from 'node:path';
import { buildSampleCorpus } from '../../fixtures/sample/sample-corpus.js';
import { runCli, tempDir } from './run-cli.js';

export interface SampleWarehouse {
  root: string;
  userDir: string;
  target: string;
}

export function loadSample(kind: 'duckdb' | 'parquet' = 'duckdb'): SampleWarehouse {
  const root = tempDir();
  const { userDir } = buildSampleCorpus(join(root, 'cursor'));
  const target =
    kind === 'duckdb' ? `duckdb:${join(root, 'warehouse.duckdb')}` : `parquet:${join(root, 'dataset')}`;
  const run = runCli(['run', '--json', '--cursor-user-dir', userDir, '--target', target]);
  if (run.code !== 0) throw new Error(`sample run failed: ${run.stderr}`);
  return { root, userDir, target };
}
