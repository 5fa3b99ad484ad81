/** Scans every byte a target wrote for secrets, Parquet pages decompressed. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

/** Every file under a target (the DuckDB file and its WAL, every Parquet state, staging, lock). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/**
 * The secrets found in any byte of any file under `dir`; a Parquet file is also read decompressed
 * (its pages are zstd-compressed, so its raw bytes alone would hide plaintext).
 */
export async function leaked(dir: string, secrets: readonly string[]): Promise<string[]> {
  const files = filesUnder(dir);
  const contents: Buffer[] = files.map((file) => readFileSync(file));
  const parquet = files.filter((file) => file.endsWith('.parquet'));
  if (parquet.length > 0) {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    for (const file of parquet) {
      const reader = await connection.runAndReadAll(
        `SELECT to_json(t)::VARCHAR FROM read_parquet('${file}') t`,
      );
      contents.push(
        Buffer.from(
          reader
            .getRows()
            .map((row) => String(row[0]))
            .join('\n'),
          'utf8',
        ),
      );
    }
    connection.closeSync();
    instance.closeSync();
  }
  return secrets.filter((secret) => contents.some((b) => b.includes(Buffer.from(secret, 'utf8'))));
}
