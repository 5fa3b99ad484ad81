import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_DAMAGES, DAMAGE_FINDING, damageFile } from '../../../fixtures/parquet/file-damage.js';
import { setAsideDamage } from '../../../src/load/parquet/damaged-files.js';
import { DatasetLayout } from '../../../src/load/parquet/dataset-layout.js';
import type { DatasetManifest, ManifestFile } from '../../../src/load/parquet/dataset-manifest.js';
import { checkState } from '../../../src/load/parquet/state-integrity.js';
import { tempDir } from '../../helpers/run-cli.js';

const STATE = 'state-1';

function file(layout: DatasetLayout, path: string, partition: string | null): ManifestFile {
  const bytes = Buffer.from(`PAR1 ${path} ${'x'.repeat(64)} PAR1`);
  const full = join(layout.stateDir(STATE), path);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, bytes);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { path, partition, rows: 1, bytes: bytes.length, sha256 };
}

function dataset(): { layout: DatasetLayout; manifest: DatasetManifest } {
  const layout = new DatasetLayout(tempDir('etl-integrity-'));
  const content = (table: string) => ({
    partitionKey: 'bucket' as const,
    files: ['3', 'a'].map((b) => file(layout, `${table}/bucket=${b}/part-1.parquet`, b)),
  });
  const manifest = {
    stateId: STATE,
    previousState: null,
    tables: {
      sessions: content('sessions'),
      messages: content('messages'),
      diagnostics: { partitionKey: 'run', files: [file(layout, 'diagnostics/run=r/part-1.parquet', 'r')] },
      etl_runs: { partitionKey: null, files: [file(layout, 'etl_runs/part-1.parquet', null)] },
      etl_sources: { partitionKey: null, files: [file(layout, 'etl_sources/part-1.parquet', null)] },
    },
  } as unknown as DatasetManifest;
  return { layout, manifest };
}

describe('checkState: every data file against its manifest size and sha256', () => {
  it.each(ALL_DAMAGES)('finds $kind at $position and names only table and partition', async (damage) => {
    const { layout, manifest } = dataset();
    expect((await checkState(layout, manifest)).damaged).toEqual([]);
    damageFile(join(layout.stateDir(STATE), 'messages/bucket=a/part-1.parquet'), damage);
    const check = await checkState(layout, manifest);
    expect(check).toEqual({
      filesChecked: 7,
      damaged: [{ table: 'messages', partition: 'a', damage: DAMAGE_FINDING[damage.kind] }],
    });
    // Readers check sizes only: a flipped byte passes, every other damage is caught.
    const sizes = await checkState(layout, manifest, false);
    expect(sizes.damaged.length).toBe(damage.kind === 'flip' ? 0 : 1);
  });
});

describe('setAsideDamage: nothing damaged is carried into the next state', () => {
  it('sets a damaged content bucket aside in every content table and forgets the source fingerprints', () => {
    const { manifest } = dataset();
    const aside = setAsideDamage(
      manifest,
      [{ table: 'messages', partition: 'a', damage: 'sha256' }],
      () => 2,
    );
    expect([...aside.rebuildBuckets]).toEqual(['a']);
    expect(aside.sound.tables.sessions!.files.map((f) => f.partition)).toEqual(['3']);
    expect(aside.sound.tables.messages!.files.map((f) => f.partition)).toEqual(['3']);
    expect(aside.sound.tables.etl_sources!.files).toEqual([]);
    expect(aside.sound.tables.etl_runs!.files.length).toBe(1);
    expect(aside.diagnostics.map((d) => d.details)).toEqual([
      {
        table: 'messages',
        partition: 'a',
        damage: 'sha256',
        action: 'rebuilt-from-sources',
        sessionsNotInSources: 2,
      },
    ]);
  });

  it('restarts a damaged ledger table and leaves a damaged diagnostics partition out', () => {
    const { manifest } = dataset();
    const aside = setAsideDamage(
      manifest,
      [
        { table: 'etl_runs', partition: null, damage: 'size' },
        { table: 'diagnostics', partition: 'r', damage: 'missing' },
      ],
      () => 0,
    );
    expect(aside.rebuildBuckets.size).toBe(0);
    expect(aside.sound.tables.etl_runs!.files).toEqual([]);
    expect(aside.sound.tables.etl_sources!.files).toEqual([]);
    expect(aside.sound.tables.diagnostics!.files).toEqual([]);
    expect(aside.sound.tables.sessions!.files.length).toBe(2);
    expect(aside.diagnostics.map((d) => (d.details as { action: string }).action)).toEqual([
      'ledger-restarted',
      'left-out',
    ]);
  });
});
