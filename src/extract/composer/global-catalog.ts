/**
 * Catalogs a global `state.vscdb` without payloads: a skip-scan over the `bubbleId:` key index
 * finds each composer ID in O(sessions) seeks (each key's owner decided by `BubbleKeyOwners`). The
 * fingerprint's stats query reads only the key index, and only when no hydration supplied it.
 */

import type Database from 'better-sqlite3';
import { agentKvOnlyComposers } from '../agentkv/agentkv-only-sessions.js';
import {
  excludedPrefixesParams,
  excludedPrefixesSql,
  type HydrationBudget,
  prefixUpperBound,
} from '../sqlite/keyset-pager.js';
import { cachedStatement } from '../sqlite/statement-cache.js';
import { decodeStrictUtf8 } from '../text/strict-utf8.js';
import { BUBBLE_PREFIX, BubbleKeyOwners, COMPOSER_DATA_PREFIX } from './bubble-key-owners.js';
import { diffStats, diffValues } from './code-block-diff-rows.js';
import type { EarlyContentDigests } from './early-content-digests.js';
import { type DigestSession, globalContentDigests } from './global-content-digests.js';
import { type BubbleStats, type LaneSession, laneDigest, laneDigests } from './lane-content-digests.js';
import { ContentDigest, LazyFingerprint, type SessionEvidenceQuery } from './session-fingerprint.js';

/** One session's bubble stats: it names only `key` and `rowid`, so SQLite answers from the key index. */
export const SESSION_STATS_SQL = `SELECT count(*) AS n, max(rowid) AS maxRow, total(rowid) AS rowSum
  FROM cursorDiskKV WHERE key >= ? AND key < ? AND substr(CAST(key AS BLOB), 1, ?) = CAST(? AS BLOB)`;

/** The rowids of the same rows, from the key index too. */
const SESSION_ROWIDS_SQL = `SELECT rowid FROM cursorDiskKV
  WHERE key >= ? AND key < ? AND substr(CAST(key AS BLOB), 1, ?) = CAST(? AS BLOB)`;

export interface GlobalCatalogEntry {
  composerId: string;
  /** Key prefixes inside the session's range that belong to sessions nested in it. */
  excluded: readonly string[];
  fingerprint: LazyFingerprint;
}

/**
 * `pass`: a worker for the content digests the plan will ask for (a changed source under
 * `--since-last`), handed its job in this call, before the first entry is asked for, so that it
 * runs beside the catalog.
 */
export function scanGlobalSessions(
  db: Database.Database,
  budget: HydrationBudget,
  skipped: { protobufOnly: number } = { protobufOnly: 0 },
  pass?: EarlyContentDigests,
): Generator<GlobalCatalogEntry> {
  const owners = BubbleKeyOwners.read(db, budget);
  const early = pass?.begin(db, owners.colonIds) === true ? pass : undefined;
  return globalEntries(db, budget, skipped, owners, early);
}

function* globalEntries(
  db: Database.Database,
  budget: HydrationBudget,
  skipped: { protobufOnly: number },
  owners: BubbleKeyOwners,
  early: EarlyContentDigests | undefined,
): Generator<GlobalCatalogEntry> {
  const next = db.prepare(
    `SELECT CAST(key AS BLOB) AS k FROM cursorDiskKV
      WHERE key >= ? AND key < ? AND substr(CAST(key AS BLOB), 1, 9) = CAST('bubbleId:' AS BLOB)
      ORDER BY key LIMIT 1`,
  );
  const composerRow = db.prepare(
    `SELECT rowid AS rid, octet_length(value) AS len FROM cursorDiskKV
      WHERE key = ? AND CAST(key AS BLOB) = CAST(? AS BLOB)`,
  );
  const docValue = db.prepare(
    `SELECT CAST(value AS BLOB) AS v FROM cursorDiskKV WHERE key = ? AND CAST(key AS BLOB) = CAST(? AS BLOB)`,
  );
  // The same rows as the stats query (and a hydration), in rowid order.
  const bubbleValuesSql = (excluded: number): string =>
    `SELECT rowid AS r, CAST(value AS BLOB) AS v FROM cursorDiskKV
      WHERE key >= ? AND key < ? AND substr(CAST(key AS BLOB), 1, ?) = CAST(? AS BLOB)${excludedPrefixesSql(excluded)}
      ORDER BY rowid`;
  const composerValue = (composerId: string): Buffer | null | undefined => {
    const dataKey = `${COMPOSER_DATA_PREFIX}${composerId}`;
    return (docValue.get(dataKey, dataKey) as { v: Buffer | null } | undefined)?.v;
  };
  const sessionParams = (composerId: string): (string | number)[] => {
    const prefix = `${BUBBLE_PREFIX}${composerId}:`;
    const excluded = owners.excluded(composerId);
    return [
      prefix,
      prefixUpperBound(prefix),
      Buffer.byteLength(prefix),
      prefix,
      ...excludedPrefixesParams(excluded),
    ];
  };
  const digestSession = (composerId: string): DigestSession => ({
    composerId,
    doc: () => composerValue(composerId),
    rowids: () =>
      cachedStatement(db, SESSION_ROWIDS_SQL + excludedPrefixesSql(owners.excluded(composerId).length))
        .pluck()
        .all(...sessionParams(composerId)) as number[],
    diffs: () => diffValues(db, composerId),
  });
  // Every session catalogued so far: asked for one session's content, the plan asks for the others.
  const catalogued: string[] = [];
  let allContent: Map<string, string> | undefined;
  // With an early pass, each session's bubble stats from the key index, and the main thread's part
  // of the pass: a digest from that part stands only for a session whose every row it saw.
  const keyIndexStats = new Map<string, BubbleStats>();
  let lane = new Map<string, LaneSession>();
  const query: SessionEvidenceQuery = {
    stats(composerId) {
      const excluded = owners.excluded(composerId).length;
      const s = cachedStatement(db, SESSION_STATS_SQL + excludedPrefixesSql(excluded)).get(
        ...sessionParams(composerId),
      ) as {
        n: number;
        maxRow: number | null;
        rowSum: number;
      };
      if (early !== undefined) keyIndexStats.set(composerId, [s.n, s.maxRow, s.rowSum]);
      const dataKey = `${COMPOSER_DATA_PREFIX}${composerId}`;
      const doc = composerRow.get(dataKey, dataKey) as { rid: number; len: number | null } | undefined;
      const diffs = diffStats(db, composerId);
      return {
        diffRows: diffs.rows,
        diffRowidSum: diffs.rowidSum,
        rows: s.n,
        maxRowid: s.maxRow,
        rowidSum: s.rowSum,
        docRowid: doc?.rid ?? null,
        docBytes: doc?.len ?? null,
      };
    },
    content(composerId, fingerprint) {
      const pass =
        early?.take((job) => {
          lane = laneDigests(job, composerValue);
        }) ?? null;
      const owned = pass?.get(composerId);
      if (owned !== undefined && owned[0] === fingerprint) return owned[1];
      const walked = lane.get(composerId);
      lane.delete(composerId);
      const fromLane =
        pass === null
          ? undefined
          : laneDigest(walked, keyIndexStats.get(composerId), () => diffValues(db, composerId));
      if (fromLane !== undefined) return fromLane;
      // Asked for one session, it is asked for the others next: every digest comes from one pass.
      // A session the early pass could not vouch for is read alone, as one missing from the pass.
      if (pass === null) allContent ??= globalContentDigests(db, catalogued.map(digestSession));
      const known = allContent?.get(composerId);
      if (known !== undefined) return known;
      const digest = new ContentDigest();
      digest.doc(composerValue(composerId));
      const excluded = owners.excluded(composerId).length;
      const rows = cachedStatement(db, bubbleValuesSql(excluded)).iterate(...sessionParams(composerId));
      for (const row of rows as Iterable<{ r: number; v: Buffer | null }>) digest.bubble(row.r, row.v);
      for (const [rowid, value] of diffValues(db, composerId)) digest.diff(rowid, value);
      return digest.digest();
    },
  };
  const entry = (composerId: string): GlobalCatalogEntry => {
    catalogued.push(composerId);
    return {
      composerId,
      excluded: owners.excluded(composerId),
      fingerprint: new LazyFingerprint(query, composerId),
    };
  };
  const end = prefixUpperBound(BUBBLE_PREFIX);
  const yielded = new Set<string>();
  const all = new Set<string>();
  let from = BUBBLE_PREFIX;
  for (;;) {
    const row = next.get(from, end) as { k: Buffer } | undefined;
    if (!row) break;
    budget.chargeRows(1);
    const key = decodeStrictUtf8(row.k, 'sqlite', false);
    const owner = owners.owner(key);
    if (owner === null) {
      // `bubbleId:<x>` without a bubble segment (or an empty composer ID): not a session key.
      from = `${key}\u0000`;
      continue;
    }
    // Decoded from its own bytes: a slice of the key would keep the whole key alive for the run.
    const idBytes = row.k.subarray(BUBBLE_PREFIX.length, BUBBLE_PREFIX.length + Buffer.byteLength(owner));
    const composerId = decodeStrictUtf8(idBytes, 'sqlite', false);
    if (owners.colonIds.has(composerId)) yielded.add(composerId);
    all.add(composerId);
    yield entry(composerId);
    from = prefixUpperBound(`${BUBBLE_PREFIX}${composerId}:`);
  }
  // The skip-scan jumps over the ranges of sessions nested in a session it found.
  for (const composerId of owners.colonIds) {
    if (!yielded.has(composerId) && query.stats(composerId).rows > 0) {
      all.add(composerId);
      yield entry(composerId);
    }
  }
  for (const composerId of agentKvOnlyComposers(db, all, budget, skipped)) yield entry(composerId);
}
