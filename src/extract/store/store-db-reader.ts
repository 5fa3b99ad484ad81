/**
 * Reads one store.db from a consistent snapshot: the hex meta row, then the tree walk with every
 * blob size checked against `sqliteValueBytes` before it is materialized and charged to the
 * session's hydration budget. Problems become data (`failed` status or per-leaf problems).
 */

import type Database from 'better-sqlite3';
import { type DiagnosticSink, diagnostic } from '../../shared/diagnostic.js';
import { checkLimit } from '../limits/limit-exceeded.js';
import type { ReadLimits } from '../limits/read-limits.js';
import type { ReadCounters } from '../read-counters.js';
import { HydrationBudget } from '../sqlite/keyset-pager.js';
import { walkTree } from './blob-tree.js';
import { opaqueBlob } from './leaf-decode.js';
import type {
  StoreDbBytesData,
  StoreDbData,
  StoreLeafBytes,
  StoreSessionFacts,
} from './store-contribution.js';
import { decodeStoreMetaRow, StoreMetaInvalid } from './store-meta-row.js';
import { unreadableStoreSource } from './store-source-diagnostics.js';

interface ReadEnv {
  limits: ReadLimits;
  counters: ReadCounters;
  sink: DiagnosticSink;
  scope: { sessionId: string; sourceRef: string };
}

export function failedDb(facts: StoreSessionFacts, failure: string): StoreDbData {
  return {
    status: 'failed',
    failure,
    title: null,
    createdAtMs: null,
    timeProblems: [],
    leaves: [],
    treeProblems: [],
    facts,
  };
}

function blobReader(db: Database.Database, env: ReadEnv, budget: HydrationBudget) {
  // One lookup per blob: the size, and the value only when the size is within the limit (an
  // oversized value is never materialized).
  const blobStmt = db.prepare(
    'SELECT octet_length(data) AS len, CASE WHEN octet_length(data) <= ? THEN CAST(data AS BLOB) END AS data FROM blobs WHERE id = ?',
  );
  return (id: string): Uint8Array | null => {
    const row = blobStmt.get(env.limits.sqliteValueBytes, id) as
      | { len: number | null; data: Buffer | null }
      | undefined;
    if (!row || row.len === null) return null;
    budget.chargeRows(1);
    checkLimit('sqliteValueBytes', env.limits.sqliteValueBytes, row.len);
    if (row.data === null) return null;
    checkLimit('sqliteValueBytes', env.limits.sqliteValueBytes, row.data.length);
    budget.chargeBytes(row.data.length);
    env.counters.chargePayload(row.data.length);
    return row.data;
  };
}

/** A failed read is already decoded (`StoreDbData`); a read one carries its leaves' bytes. */
export function readStoreDb(
  db: Database.Database,
  facts: StoreSessionFacts,
  env: ReadEnv,
): StoreDbData | StoreDbBytesData {
  // One statement each for the tables and the meta row: per store.db, each prepare costs more
  // than its step.
  const tables = db
    .prepare(
      "SELECT count(DISTINCT name) AS n FROM sqlite_master WHERE type = 'table' AND name IN ('meta', 'blobs')",
    )
    .get() as { n: number };
  if (tables.n !== 2) {
    env.sink.add(unreadableStoreSource('store-db', 'missing-tables', env.scope));
    return failedDb(facts, 'missing-tables');
  }
  // The value only when its size is within the limit: an oversized one is never materialized.
  const metaRow = db
    .prepare(
      "SELECT octet_length(value) AS len, CASE WHEN octet_length(value) <= ? THEN CAST(value AS TEXT) END AS value FROM meta WHERE key = '0'",
    )
    .get(env.limits.sqliteValueBytes) as { len: number | null; value: string | null } | undefined;
  if (!metaRow || metaRow.len === null) {
    env.sink.add(unreadableStoreSource('store-db', 'missing-meta-row', env.scope));
    return failedDb(facts, 'missing-meta-row');
  }
  checkLimit('sqliteValueBytes', env.limits.sqliteValueBytes, metaRow.len);
  let meta: ReturnType<typeof decodeStoreMetaRow>;
  try {
    meta = decodeStoreMetaRow(metaRow.value as string);
  } catch (error) {
    if (!(error instanceof StoreMetaInvalid)) throw error;
    env.sink.add(
      diagnostic(
        'STORE_META_INVALID',
        'A store.db meta row is not hex-encoded JSON naming a valid root blob',
        { reason: error.reason },
        env.scope,
      ),
    );
    return failedDb(facts, 'invalid-meta-row');
  }
  const base = {
    status: 'read' as const,
    failure: null,
    title: meta.name,
    createdAtMs: meta.createdAtMs,
    timeProblems: meta.timeProblems,
    facts,
    subagent: meta.subagent,
    lastUsedModel: meta.lastUsedModel,
  };
  if (meta.latestRootBlobId === null) return { ...base, leafBytes: [], treeProblems: [] };
  const budget = new HydrationBudget(env.limits);
  const readBlob = blobReader(db, env, budget);
  const rootId = meta.latestRootBlobId;
  let root: Uint8Array | null = null;
  const walk = walkTree(rootId, (id) => {
    const bytes = readBlob(id);
    if (id === rootId) root = bytes;
    return bytes;
  });
  const leafBytes: StoreLeafBytes[] = walk.leaves.map((hash) => ({ hash, bytes: readBlob(hash) }));
  const treeProblems = [...walk.problems];
  if (walk.leaves.length === 0 && root !== null && opaqueBlob(root))
    treeProblems.push('possibly-encrypted-root');
  return { ...base, leafBytes, treeProblems };
}
