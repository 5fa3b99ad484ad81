/**
 * Replaces the target's price table as a whole, under the target's single-writer lock: in one
 * transaction in a DuckDB warehouse; in a Parquet dataset by writing `model_prices.parquet` aside
 * and renaming it over the old one, so a reader sees the old or the new table, never a mix.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type ModelPriceRow, modelPricesTable } from '../../../schemas/price-tables.js';
import { createTableSql } from '../../../schemas/table-definition.js';
import { NotFoundError } from '../../shared/errors.js';
import { faultPoint } from '../../shared/fault-injection.js';
import { outputModes } from '../../shared/output-permissions.js';
import { acquireRunLock } from '../../shared/process/run-lock.js';
import { DuckDBInstance } from '../duckdb/duckdb-api.js';
import { openWarehouse } from '../duckdb/duckdb-warehouse.js';
import { appendToTable } from '../duckdb/row-appender.js';
import { sqlString } from '../duckdb/sql-string.js';
import { connectInUtc } from '../duckdb/utc-connection.js';
import type { AnyTable } from '../export/export-tables.js';
import type { TargetLocation } from '../open-target.js';
import { assertDatasetDirectory, DatasetLayout } from '../parquet/dataset-layout.js';
import { guardWrite } from '../write-failure.js';

async function replaceInWarehouse(path: string, rows: readonly ModelPriceRow[]): Promise<void> {
  const warehouse = await openWarehouse(path, 'write');
  try {
    await warehouse.connection.run('BEGIN TRANSACTION');
    try {
      await warehouse.connection.run(`DELETE FROM ${modelPricesTable.name}`);
      await appendToTable(warehouse.connection, modelPricesTable, rows);
      await warehouse.connection.run('COMMIT');
    } catch (error) {
      await warehouse.connection.run('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    warehouse.close();
  }
}

async function replaceInDataset(root: string, rows: readonly ModelPriceRow[]): Promise<void> {
  const layout = new DatasetLayout(root);
  // Under the writer lock anything in staging is a dead writer's unpublished residue, as at a run's open.
  rmSync(layout.stagingDir, { recursive: true, force: true });
  mkdirSync(layout.stagingDir, { recursive: true, mode: outputModes().dir });
  const staged = join(layout.stagingDir, `model-prices-${randomUUID()}.parquet`);
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await connectInUtc(instance);
  try {
    await connection.run(createTableSql(modelPricesTable as unknown as AnyTable));
    await appendToTable(connection, modelPricesTable, rows);
    await connection.run(
      `COPY (SELECT * FROM ${modelPricesTable.name} ORDER BY model, valid_from) TO ${sqlString(staged)} (FORMAT parquet)`,
    );
    faultPoint('prices-staged');
    renameSync(staged, layout.pricesFile);
  } finally {
    connection.closeSync();
    instance.closeSync();
    rmSync(staged, { force: true });
  }
}

/** Replaces the price table of an existing target with `rows` (an empty list clears it). */
export async function replaceModelPrices(
  location: TargetLocation,
  rows: readonly ModelPriceRow[],
): Promise<void> {
  if (!existsSync(location.path)) {
    throw new NotFoundError(
      'WAREHOUSE_NOT_FOUND',
      'No warehouse exists at the target; run `etl run` first',
      {},
    );
  }
  if (location.kind === 'parquet') assertDatasetDirectory(location.path);
  const lockBase = location.kind === 'duckdb' ? location.path : new DatasetLayout(location.path).lockBase;
  const lock = await guardWrite(location.kind, 'lock', () => acquireRunLock(lockBase));
  try {
    await guardWrite(location.kind, 'transaction', () =>
      location.kind === 'duckdb'
        ? replaceInWarehouse(location.path, rows)
        : replaceInDataset(location.path, rows),
    );
  } finally {
    lock.release();
  }
}
