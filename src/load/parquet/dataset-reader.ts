/**
 * Read-only access to the published state: an in-memory DuckDB whose tables are views over the
 * state's Parquet files (named by its manifest), plus the analyst views. The state directory is
 * immutable, so a reader sees one complete state however long it reads.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { LEDGER_TABLES } from '../../../schemas/ledger-tables.js';
import { modelPricesTable } from '../../../schemas/price-tables.js';
import {
  type ColumnSpec,
  createTableSql,
  duckDbType,
  type TableDefinition,
} from '../../../schemas/table-definition.js';
import { ROW_TABLES } from '../../../schemas/tables.js';
import { NotFoundError } from '../../shared/errors.js';
import { DuckDBInstance } from '../duckdb/duckdb-api.js';
import type { OpenedWarehouse } from '../duckdb/duckdb-warehouse.js';
import { lockDown, SANDBOX_INSTANCE_OPTIONS, type Sandbox } from '../duckdb/query-sandbox.js';
import { sqlList } from '../duckdb/sql-string.js';
import { connectInUtc } from '../duckdb/utc-connection.js';
import { ROWS_OF_OLDER_BUILD_KEY } from '../duckdb/warehouse-version.js';
import { createAnalystViews } from '../views/analyst-views.js';
import { assertDatasetDirectory, DatasetLayout } from './dataset-layout.js';
import { type DatasetManifest, readCurrentManifest } from './dataset-manifest.js';
import { predatesThisBuild } from './older-shape.js';
import { checkState, damagedStateError, explainReadFailure } from './state-integrity.js';

type AnyTable = TableDefinition<Record<string, ColumnSpec>>;
export const DATASET_TABLES = [...ROW_TABLES, ...LEDGER_TABLES] as unknown as AnyTable[];

/** Absolute paths of a table's files in a state, optionally of one partition. */
export function stateFiles(
  layout: DatasetLayout,
  manifest: DatasetManifest | null,
  table: string,
  partition?: string,
): string[] {
  if (manifest === null) return [];
  const files = manifest.tables[table]?.files ?? [];
  return files
    .filter((f) => partition === undefined || f.partition === partition)
    .map((f) => join(layout.stateDir(manifest.stateId), f.path));
}

/**
 * `SELECT <schema columns> FROM read_parquet([...])`, so hive columns never leak into results. A
 * column a file lacks (written by an older build) reads as NULL; times are cast to instants, as files
 * of schema version 2 hold UTC wall-clock timestamps.
 */
export function readFilesSql(table: AnyTable, files: readonly string[]): string {
  const names = Object.keys(table.columns);
  const columns = Object.entries(table.columns).map(
    ([name, spec]) => `CAST(${name} AS ${duckDbType(spec)}) AS ${name}`,
  );
  const everyColumn = `SELECT ${names.map((name) => `NULL AS ${name}`).join(', ')} WHERE false`;
  return `SELECT ${columns.join(', ')} FROM (${everyColumn} UNION ALL BY NAME SELECT * FROM read_parquet(${sqlList(files)}, union_by_name = true))`;
}

export async function createStateViews(
  connection: DuckDBConnection,
  layout: DatasetLayout,
  manifest: DatasetManifest | null,
): Promise<void> {
  if (manifest !== null) {
    // What `etl_meta` says in a warehouse; status and verify ask an older build's state for one run first.
    await connection.run('CREATE TABLE etl_meta (key VARCHAR NOT NULL, value VARCHAR NOT NULL)');
    await connection.run("INSERT INTO etl_meta VALUES ('schema_version', $1)", [
      String(manifest.schemaVersion),
    ]);
    if (await predatesThisBuild(connection, layout, manifest))
      await connection.run(`INSERT INTO etl_meta VALUES ('${ROWS_OF_OLDER_BUILD_KEY}', 'true')`);
  }
  for (const table of DATASET_TABLES) {
    const files = stateFiles(layout, manifest, table.name);
    await connection.run(
      files.length === 0
        ? createTableSql(table)
        : `CREATE VIEW ${table.name} AS ${readFilesSql(table, files)}`,
    );
  }
  // The price table is small and lies outside the state directory: copied in before the lockdown.
  await connection.run(createTableSql(modelPricesTable as unknown as AnyTable));
  if (existsSync(layout.pricesFile))
    await connection.run(
      `INSERT INTO ${modelPricesTable.name} ${readFilesSql(modelPricesTable as unknown as AnyTable, [layout.pricesFile])}`,
    );
  await createAnalystViews(connection);
}

export function readPublishedManifest(layout: DatasetLayout): DatasetManifest {
  const manifest = readCurrentManifest(layout);
  if (manifest === null) {
    throw new NotFoundError(
      'WAREHOUSE_NOT_FOUND',
      'No published Parquet dataset exists at the target; run `etl run` first',
      {},
    );
  }
  return manifest;
}

/** The published state behind read-only views, in the sandbox: readable is its state directory only. */
export async function openDatasetReadOnly(
  root: string,
  sandbox: Sandbox = {},
): Promise<OpenedWarehouse & { manifest: DatasetManifest }> {
  assertDatasetDirectory(root);
  const layout = new DatasetLayout(root);
  const manifest = readPublishedManifest(layout);
  // Views read each file's footer: a missing or cut file fails here, typed, before any view.
  const sizes = await checkState(layout, manifest, false);
  if (sizes.damaged.length > 0) throw damagedStateError(sizes);
  const instance = await DuckDBInstance.create(':memory:', SANDBOX_INSTANCE_OPTIONS);
  const connection = await connectInUtc(instance);
  const close = (): void => {
    connection.closeSync();
    instance.closeSync();
  };
  try {
    await createStateViews(connection, layout, manifest);
    await lockDown(
      connection,
      [layout.stateDir(manifest.stateId), ...(sandbox.writableDirectories ?? [])],
      sandbox.settings,
      sandbox.prepare,
    );
  } catch (error) {
    close();
    throw await explainReadFailure(layout, manifest, error);
  }
  return { instance, connection, close, manifest };
}
