/** A private DuckDB connection for building a state's files from the staging warehouse. */
import type { DuckDBConnection } from '@duckdb/node-api';
import { DuckDBInstance } from '../duckdb/duckdb-api.js';
import { BUILD_MEMORY_BYTES, buildInstanceOptions } from '../duckdb/run-memory.js';
import { connectInUtc } from '../duckdb/utc-connection.js';
import { fitMemoryLimit, largestStoredValueBytes } from '../duckdb/value-memory.js';

export async function withBuildConnection<T>(
  path: string,
  work: (c: DuckDBConnection) => Promise<T>,
): Promise<T> {
  // Bounded like the run's writer; sorts that exceed it spill to `<path>.tmp` inside the private staging dir.
  const instance = await DuckDBInstance.create(path, buildInstanceOptions());
  const connection = await connectInUtc(instance);
  try {
    await fitMemoryLimit(connection, BUILD_MEMORY_BYTES, await largestStoredValueBytes(connection));
    return await work(connection);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
