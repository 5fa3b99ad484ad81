/**
 * A Parquet run's staging warehouse: content tables start empty, ledger tables as copies of the
 * published ledger, so the DuckDB target's ledger code applies unchanged. An older build's rows mark
 * every source for one more read.
 */
import { LEDGER_TABLES } from '../../../schemas/ledger-tables.js';
import { openWarehouse } from '../duckdb/duckdb-warehouse.js';
import { REREAD_EVERY_SOURCE_SQL } from '../duckdb/warehouse-version.js';
import type { AnyTable } from '../export/export-tables.js';
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
