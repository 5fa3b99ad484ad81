/**
 * Every connection the tool opens reads and writes instants in UTC: DuckDB otherwise takes the
 * machine's zone for casts between TIMESTAMP and TIMESTAMPTZ, `date_trunc('day', …)` and text output.
 * The setting cannot be an instance option, as the built-in ICU registers it only after start-up.
 */
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';

export async function connectInUtc(instance: DuckDBInstance): Promise<DuckDBConnection> {
  const connection = await instance.connect();
  try {
    await connection.run("SET TimeZone = 'UTC'");
  } catch (error) {
    connection.closeSync();
    throw error;
  }
  return connection;
}
