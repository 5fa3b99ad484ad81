/** `etl merge` in-process into a team warehouse, and what a Parquet write would change. */
import { CONTENT_TABLES } from '../../schemas/tables.js';
import { type TargetLocation, targetOpener } from '../../src/load/open-target.js';
import { DatasetLayout } from '../../src/load/parquet/dataset-layout.js';
import { readCurrentManifest } from '../../src/load/parquet/dataset-manifest.js';
import { type MergeSummary, runMerge } from '../../src/sync/merge-run.js';

/** Merges `inputs` into `target` as the origin `team-job`. */
export async function merge(target: TargetLocation, inputs: TargetLocation[]): Promise<MergeSummary> {
  const warehouse = await (await targetOpener(target))();
  try {
    return await runMerge({ inputs, origin: 'team-job' }, warehouse);
  } finally {
    await warehouse.close();
  }
}

/** The SHA-256 of each content table's files in the dataset's current state. */
export function contentFileDigests(datasetPath: string) {
  const manifest = readCurrentManifest(new DatasetLayout(datasetPath))!;
  return CONTENT_TABLES.map((t) => manifest.tables[t.name]!.files.map((f) => f.sha256).sort());
}
