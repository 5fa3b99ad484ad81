/**
 * Re-redaction of a DuckDB warehouse into a fresh file that replaces it in one rename: deleted rows
 * stay in a DuckDB file's freed blocks, so an in-place rewrite would keep plaintext on disk. The
 * caller checkpoints and closes the old file first.
 */
import { rmSync } from 'node:fs';
import { REDACTION_POLICY_KEY, serializePolicy } from '../../shared/redaction-policy.js';
import { publishFile, siblingTempPath } from '../fs/durable-file.js';
import type { ArchiveRewrite } from '../target.js';
import { openWarehouse } from './duckdb-warehouse.js';
import { rewriteRows } from './rewrite-rows.js';
import { sqlString } from './sql-string.js';
import { writeMetaValue } from './warehouse-version.js';

export async function rebuildWarehouse(path: string, rewrite: ArchiveRewrite): Promise<number> {
  const temp = siblingTempPath(path);
  let published = false;
  try {
    const dest = await openWarehouse(temp, 'write');
    let sessions: number;
    try {
      const connection = dest.connection;
      await connection.run(`ATTACH ${sqlString(path)} AS old (READ_ONLY)`);
      await connection.run('DELETE FROM etl_meta');
      await connection.run('INSERT INTO etl_meta SELECT key, value FROM old.etl_meta WHERE key <> $1', [
        REDACTION_POLICY_KEY,
      ]);
      sessions = await rewriteRows(connection, (table) => `old.${table}`, rewrite);
      await writeMetaValue(connection, REDACTION_POLICY_KEY, serializePolicy(rewrite.policy));
      await connection.run('DETACH old');
      await connection.run('CHECKPOINT');
    } finally {
      dest.close();
    }
    publishFile(temp, path);
    published = true;
    return sessions;
  } finally {
    if (!published) {
      rmSync(temp, { force: true });
      rmSync(`${temp}.wal`, { force: true });
    }
  }
}
