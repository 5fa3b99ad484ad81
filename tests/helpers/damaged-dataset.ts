/**
 * One damage case on a copy of a published sample dataset: damage a file, then check that verify
 * and status fail typed and path-free, and that the next run rebuilds exactly the lost content.
 */
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { DAMAGE_FINDING, type Damage, damageFile } from '../../fixtures/parquet/file-damage.js';
import { currentState } from './dataset-files.js';
import { runCli } from './run-cli.js';
import type { SampleWarehouse } from './sample-warehouse.js';

const CONTENT = [
  'select * from sessions order by session_id',
  'select * from messages order by session_id, ordinal',
  'select * from tool_calls order by session_id, message_id, tool_ordinal',
  'select * from source_instances order by session_id, instance_ordinal',
];

interface ManifestShape {
  tables: Record<string, { files: { path: string; partition: string | null }[] }>;
}

function manifest(dir: string): ManifestShape {
  return JSON.parse(readFileSync(join(dir, 'states', currentState(dir), 'manifest.json'), 'utf8'));
}

/** The rows of every content table, to compare a repaired dataset with the intact one. */
export function contentOf(target: string): unknown[] {
  return CONTENT.map((sql) => {
    const result = runCli(['query', '--json', '--target', target, sql]);
    expect(result.code).toBe(0);
    return JSON.parse(result.stdout).rows;
  });
}

export interface DamageCase {
  table: string;
  damage: Damage;
  /** Which of the table's files, as a fraction of their count. */
  pick: number;
  sinceLast: boolean;
}

export function runDamageCase(
  sample: SampleWarehouse,
  intact: unknown[],
  where: string,
  c: DamageCase,
): void {
  const dir = join(where, 'dataset');
  cpSync(sample.target.slice('parquet:'.length), dir, { recursive: true });
  const target = `parquet:${dir}`;
  const files = manifest(dir).tables[c.table]!.files;
  const file = files[Math.floor(c.pick * files.length)]!;
  damageFile(join(dir, 'states', currentState(dir), file.path), c.damage);
  const named = { table: c.table, partition: file.partition, damage: DAMAGE_FINDING[c.damage.kind] };

  const verify = runCli(['verify', '--json', '--target', target]);
  expect(verify.code).toBe(5);
  const error = JSON.parse(verify.stderr).error;
  expect(error.code).toBe('DATASET_FILE_DAMAGED');
  expect(error.details.damaged).toEqual([named]);

  const status = runCli(['status', '--json', '--target', target]);
  if (status.code !== 0) {
    expect(status.code).toBe(5);
    expect(JSON.parse(status.stderr).error.code).toBe('DATASET_FILE_DAMAGED');
  }
  for (const output of [verify, status]) expect(output.stdout + output.stderr).not.toContain(where);

  const run = runCli([
    'run',
    '--json',
    ...(c.sinceLast ? ['--since-last'] : []),
    '--cursor-user-dir',
    sample.userDir,
    '--target',
    target,
  ]);
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  const diagnostics = JSON.parse(run.stdout).diagnostics as { code: string; details: unknown }[];
  expect(diagnostics.filter((d) => d.code === 'DATASET_FILE_SET_ASIDE').map((d) => d.details)).toEqual([
    expect.objectContaining(named),
  ]);
  // The damaged file is in no table of the new state, and the rebuilt content is the intact one.
  const published = Object.values(manifest(dir).tables).flatMap((t) => t.files.map((f) => f.path));
  expect(published).not.toContain(file.path);
  expect(runCli(['verify', '--json', '--target', target]).code).toBe(0);
  expect(contentOf(target)).toEqual(intact);
}
