/**
 * A Parquet run's staging warehouse: content tables start empty, ledger tables as copies of the
 * published ledger, so the DuckDB target's ledger code applies unchanged. An older build's rows mark
 * every source for one more read.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { LEDGER_TABLES } from '../../../schemas/ledger-tables.js';
import { DuckDbTarget } from '../duckdb/duckdb-target.js';
import { openWarehouse } from '../duckdb/duckdb-warehouse.js';
import { REREAD_EVERY_SOURCE_SQL } from '../duckdb/warehouse-version.js';
import type { AnyTable } from '../export/export-tables.js';
import { guardWrite } from '../write-failure.js';
import type { DatasetLayout } from './dataset-layout.js';
import type { DatasetManifest } from './dataset-manifest.js';
import { readFilesSql, stateFiles } from './dataset-reader.js';
import { predatesThisBuild } from './older-shape.js';

export async function seedStaging(
  path: string,
  layout: DatasetLayout,
  previous: DatasetManifest | null,
): Promise<void> {
  const warehouse = await openWarehouse(path, 'write');
  try {
    for (const table of LEDGER_TABLES as unknown as AnyTable[]) {
      const files = stateFiles(layout, previous, table.name);
      if (files.length > 0)
        await warehouse.connection.run(`INSERT INTO ${table.name} ${readFilesSql(table, files)}`);
    }
    if (previous !== null && (await predatesThisBuild(warehouse.connection, layout, previous)))
      await warehouse.connection.run(REREAD_EVERY_SOURCE_SQL);
  } finally {
    warehouse.close();
  }
}
/** A fresh private staging warehouse whose ledger starts as the published state's. */
export async function openStaging(
  layout: DatasetLayout,
  previous: DatasetManifest | null,
): Promise<{ stagingDir: string; staging: DuckDbTarget }> {
  const stagingDir = join(layout.stagingDir, randomUUID());
  mkdirSync(stagingDir, { recursive: true, mode: 0o700 });
  const stagingFile = join(stagingDir, 'stage.duckdb');
  await guardWrite('parquet', 'open', () => seedStaging(stagingFile, layout, previous));
  return { stagingDir, staging: await DuckDbTarget.open(stagingFile, 'parquet') };
}
