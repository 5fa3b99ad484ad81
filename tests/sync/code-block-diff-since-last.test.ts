/**
 * A `codeBlockDiff` row changed in place (same key, rowid and length), deleted or written again:
 * `--since-last` leaves the `file_edits` rows a fresh full load gives, in both targets.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../../fixtures/bench/seeded-random.js';
import { applySourceChange, buildSourceWorld, type SourceChange } from '../../fixtures/sync/source-world.js';
import { runQuery, withReadOnlyWarehouse } from '../../src/load/duckdb/read-only-query.js';
import { openDatasetReadOnly } from '../../src/load/parquet/dataset-reader.js';
import { tempDir } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/sync-convergence.js';

const EDITS = `SELECT session_id, path, lines_added, lines_removed FROM file_edits
  WHERE session_id LIKE '7c0e4b10-%' ORDER BY ALL`;

async function edits(kind: 'duckdb' | 'parquet', path: string): Promise<Record<string, unknown>[]> {
  if (kind === 'duckdb') return withReadOnlyWarehouse(path, async (c) => (await runQuery(c, EDITS)).rows);
  const dataset = await openDatasetReadOnly(path);
  try {
    return (await runQuery(dataset.connection, EDITS)).rows;
  } finally {
    dataset.close();
  }
}

const CHANGES: SourceChange[] = [
  'code-block-diff-update-same-length',
  'code-block-diff-delete',
  'code-block-diff-insert',
];

describe('codeBlockDiff changes under --since-last', { timeout: 300_000 }, () => {
  for (const kind of ['duckdb', 'parquet'] as const) {
    it(`${kind}: every step equals a fresh full load (line counts included)`, async () => {
      const dir = tempDir('etl-code-block-diff-');
      const world = buildSourceWorld(join(dir, 'sources'));
      const sources = { ...world, inputs: [world.capture], backups: [world.backup] };
      const incremental = join(dir, 'incremental');
      await runInProcess(sources, incremental, false, kind);
      const random = new SeededRandom(5);
      const seen = new Set<string>();
      for (const [step, change] of CHANGES.entries()) {
        applySourceChange(world, change, random);
        await runInProcess(sources, incremental, true, kind);
        const fresh = join(dir, `fresh-${step}`);
        await runInProcess(sources, fresh, false, kind);
        const expected = await edits(kind, fresh);
        expect(await edits(kind, incremental)).toEqual(expected);
        seen.add(JSON.stringify(expected));
      }
      // The changes moved the counts: the comparison was not between unchanged rows.
      expect(seen.size).toBe(CHANGES.length);
    });
  }
});
