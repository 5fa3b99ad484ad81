/** Row counts and an order-independent content checksum of a table, for round-trip comparisons. */
import { createHash } from 'node:crypto';
import { DuckDBInstance } from '@duckdb/node-api';

export interface TableFingerprint {
  rows: number;
  checksum: string;
}

/** Rows as plain values: timestamps as epoch ms, 64-bit integers as decimal strings. */
export function fingerprintRows(rows: Iterable<Record<string, unknown>>): TableFingerprint {
  const lines: string[] = [];
  for (const row of rows) {
    lines.push(JSON.stringify(row, (_key, value) => (typeof value === 'bigint' ? value.toString() : value)));
  }
  lines.sort();
  return { rows: lines.length, checksum: createHash('sha256').update(lines.join('\n')).digest('hex') };
}

/** Reads `FROM <source>` in DuckDB, timestamps as epoch ms so every reader compares alike. */
export async function fingerprintDuckDb(
  database: string,
  source: string,
  columns: Record<string, { kind: string }>,
): Promise<TableFingerprint> {
  const instance = await DuckDBInstance.create(
    database,
    database === ':memory:' ? {} : { access_mode: 'READ_ONLY' },
  );
  const connection = await instance.connect();
  try {
    const list = Object.entries(columns)
      .map(([name, spec]) => (spec.kind === 'timestamp' ? `epoch_ms(${name})::BIGINT AS ${name}` : name))
      .join(', ');
    const reader = await connection.runAndReadAll(`SELECT ${list} FROM ${source}`);
    const rows = reader.getRowObjects().map((row) => {
      const plain: Record<string, unknown> = {};
      for (const [name, spec] of Object.entries(columns)) {
        const value = row[name];
        plain[name] = spec.kind === 'timestamp' && value !== null ? Number(value) : (value ?? null);
        if (spec.kind === 'json' && value !== null) plain[name] = String(value);
      }
      return plain;
    });
    return fingerprintRows(rows);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
