/**
 * The staging database of a Parquet run is a DuckDB warehouse whose content tables start empty and
 * whose ledger tables start as copies of the published state's ledger, so the DuckDB target's
 * ledger updates apply unchanged and the whole ledger is republished with the new state.
 */
import { LEDGER_TABLES } from '../../../schemas/ledger-tables.js';
import { openWarehouse } from '../duckdb/duckdb-warehouse.js';
import { ledgerResetsSince } from '../duckdb/warehouse-version.js';
import type { AnyTable } from '../export/export-tables.js';
import type { DatasetLayout } from './dataset-layout.js';
import type { DatasetManifest } from './dataset-manifest.js';
import { readFilesSql, stateFiles } from './dataset-reader.js';

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
        await warehouse.connection.run(
          `INSERT INTO ${table.name} ${readFilesSql(table, files, previous!.schemaVersion)}`,
        );
    }
    if (previous !== null)
      for (const sql of ledgerResetsSince(previous.schemaVersion)) await warehouse.connection.run(sql);
  } finally {
    warehouse.close();
  }
}
