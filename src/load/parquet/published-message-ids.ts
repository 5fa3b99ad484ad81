/** The published message IDs of the sessions two origins' complete views disagree on. */
import type { DuckDBConnection } from '@duckdb/node-api';
import { messagesTable } from '../../../schemas/tables.js';
import type { NormalizedSession } from '../../transform/normalized-session.js';
import { sqlList } from '../duckdb/sql-string.js';
import type { AnyTable } from '../export/export-tables.js';
import { applyMessageIds, messageIdsSql } from '../origin-message-ids.js';
import { sessionsNeedingMessageIds } from '../plan-loads.js';
import type { ArchivedState } from '../replace-decision.js';
import { bucketOf, type DatasetLayout } from './dataset-layout.js';
import type { DatasetManifest } from './dataset-manifest.js';
import { readFilesSql, stateFiles } from './dataset-reader.js';

export async function fillPublishedMessageIds(
  connection: DuckDBConnection,
  layout: DatasetLayout,
  published: DatasetManifest | null,
  sessions: readonly NormalizedSession[],
  archived: Map<string, ArchivedState>,
): Promise<void> {
  const ids = sessionsNeedingMessageIds(sessions, archived);
  if (ids.length === 0) return;
  const files = [...new Set(ids.map(bucketOf))].flatMap((b) => stateFiles(layout, published, 'messages', b));
  if (files.length === 0) return;
  const relation = `(${readFilesSql(messagesTable as unknown as AnyTable, files)})`;
  const reader = await connection.runAndReadAll(
    `${messageIdsSql(relation)} WHERE session_id IN (SELECT unnest(${sqlList(ids)})) GROUP BY session_id`,
  );
  applyMessageIds(reader.getRowObjects(), archived);
}
