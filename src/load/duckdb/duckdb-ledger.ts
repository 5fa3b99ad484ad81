/**
 * The sync ledger stored in the DuckDB warehouse (`etl_sources`, `etl_session_sources`,
 * `etl_session_state`). Reads serve `--since-last` planning; writes run inside the caller's load
 * transaction, so a ledger row never advances past the data it covers.
 */
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { sessionSourcesTable, sessionStateTable, sourcesTable } from '../../../schemas/ledger-tables.js';
import { canonicalJson } from '../../shared/json/canonical-json.js';
import type { SourceKind } from '../../shared/source-fingerprint.js';
import {
  hasVanished,
  type LedgerBatch,
  type LedgerFinal,
  type LedgerSource,
  type Membership,
  type SourceAdvance,
  type SyncLedgerStore,
} from '../sync-ledger.js';
import type { LoadResult } from '../target.js';
import { appendChanges } from './change-log.js';
import { listValue } from './duckdb-api.js';
import { readJsonRows } from './json-rows.js';
import { appendToTable } from './row-appender.js';

function membershipKey(list: readonly Membership[]): string {
  return canonicalJson(
    [...list]
      .map((m) => [m.sourceKey, m.occurrenceRef, m.sessionFingerprint, m.contentFingerprint])
      .sort((a, b) => (String(a[1]) < String(b[1]) ? -1 : 1)),
  );
}

function toMembership(row: Record<string, unknown>): Membership {
  return {
    sessionId: String(row.session_id),
    sourceKey: String(row.source_key),
    occurrenceRef: String(row.occurrence_ref),
    sessionFingerprint: row.session_fingerprint === null ? null : String(row.session_fingerprint),
    contentFingerprint:
      row.content_fingerprint === null || row.content_fingerprint === undefined
        ? null
        : String(row.content_fingerprint),
  };
}

/** One scan of the small table: 500-parameter IN lists cost more to bind than the rows to read. */
const STORED_SOURCES_SQL = `SELECT source_key, kind, fingerprint_digest, options_digest, roots_digest, present,
  checkpoint::VARCHAR AS checkpoint, first_seen_run, last_changed_run FROM etl_sources`;

export class DuckDbLedger implements SyncLedgerStore {
  /**
   * The source rows read for planning, kept for the final batch. Under the run lock only this run
   * writes `etl_sources`, and only in that batch, so they are still the stored rows then; the batch
   * takes them, so a later one reads afresh. Saves a no-op `--since-last` a second scan (~6 ms).
   */
  private planned: Record<string, unknown>[] | null = null;

  constructor(private readonly connection: DuckDBConnection) {}

  async readSources(): Promise<Map<string, LedgerSource>> {
    const rows = await readJsonRows(this.connection, STORED_SOURCES_SQL);
    this.planned = rows;
    const map = new Map<string, LedgerSource>();
    for (const row of rows) {
      map.set(String(row.source_key), {
        sourceKey: String(row.source_key),
        kind: String(row.kind) as SourceKind,
        fingerprintDigest: String(row.fingerprint_digest),
        optionsDigest: String(row.options_digest),
        rootsDigest: String(row.roots_digest),
        present: row.present === true,
        checkpoint: row.checkpoint === null ? null : JSON.parse(String(row.checkpoint)),
      });
    }
    return map;
  }

  async readMemberships(sourceKey: string): Promise<Membership[]> {
    const rows = await readJsonRows(
      this.connection,
      'SELECT session_id, source_key, occurrence_ref, session_fingerprint, content_fingerprint FROM etl_session_sources WHERE source_key = $1',
      [sourceKey],
    );
    return rows.map(toMembership);
  }

  async sourcesOfSessions(sessionIds: readonly string[]): Promise<Map<string, string[]>> {
    const map = new Map<string, string[]>();
    const rows = await this.readForKeys(
      'SELECT DISTINCT session_id, source_key FROM etl_session_sources WHERE session_id IN',
      sessionIds,
    );
    for (const row of rows) {
      const list = map.get(String(row.session_id)) ?? [];
      if (list.length === 0) map.set(String(row.session_id), list);
      list.push(String(row.source_key));
    }
    return map;
  }

  /** Records the batch's memberships and session presence; returns nothing, throws to roll back. */
  async writeBatch(batch: LedgerBatch, results: readonly LoadResult[]): Promise<void> {
    const ids = [...batch.memberships.keys()];
    if (ids.length > 0) {
      await this.writeMemberships(batch, ids);
      await this.writeSessionState(batch.runId, ids, results);
    }
  }

  /** Advances source rows and concludes absence; returns how many sessions became absent. */
  async writeFinal(runId: string, final: LedgerFinal): Promise<number> {
    const vanished = await this.advanceSources(runId, final);
    await this.dropUnseenMemberships(final.fullyRead);
    if (final.concludeVanished) await this.retireVanishedSources(vanished);
    // Sessions and sources this run skipped keep their last_seen_run: a no-op rewrites no row per
    // archived session or source, and its etl_runs row counts what it skipped.
    const absent = await this.connection.runAndReadAll(
      `UPDATE etl_session_state SET present_in_source = false, absent_since_run = $1
        WHERE present_in_source AND session_id NOT IN (SELECT session_id FROM etl_session_sources)
        RETURNING session_id`,
      [runId],
    );
    const gone = absent
      .getRows()
      .map((row) => String(row[0]))
      .sort();
    await appendChanges(
      this.connection,
      runId,
      gone.map((sessionId) => ({ sessionId, change: 'absent' as const })),
    );
    return absent.currentRowCount;
  }

  private async writeMemberships(batch: LedgerBatch, ids: string[]): Promise<void> {
    const existing = new Map<string, Membership[]>();
    const rows = await this.readForKeys(
      `SELECT session_id, source_key, occurrence_ref, session_fingerprint, content_fingerprint FROM etl_session_sources
        WHERE session_id IN`,
      ids,
    );
    for (const m of rows.map(toMembership)) {
      if (!batch.discoveredSourceKeys.has(m.sourceKey)) continue;
      const list = existing.get(m.sessionId) ?? [];
      if (list.length === 0) existing.set(m.sessionId, list);
      list.push(m);
    }
    // Only sessions whose membership changed are rewritten: identical input stays write-free.
    const changed = ids.filter(
      (id) => membershipKey(existing.get(id) ?? []) !== membershipKey(batch.memberships.get(id)!),
    );
    // Occurrence refs never contain NUL, so `session_id NUL occurrence_ref` is an unambiguous pair key.
    const stale = changed.flatMap((id) =>
      (existing.get(id) ?? []).map((m) => `${id}\u0000${m.occurrenceRef}`),
    );
    await this.runForKeys(
      'DELETE FROM etl_session_sources WHERE session_id || chr(0) || occurrence_ref IN',
      stale,
    );
    await appendToTable(
      this.connection,
      sessionSourcesTable,
      changed.flatMap((id) =>
        batch.memberships.get(id)!.map((m) => ({
          session_id: m.sessionId,
          source_key: m.sourceKey,
          occurrence_ref: m.occurrenceRef,
          session_fingerprint: m.sessionFingerprint,
          content_fingerprint: m.contentFingerprint,
          last_seen_run: batch.runId,
        })),
      ),
    );
  }

  private async writeSessionState(
    runId: string,
    ids: string[],
    results: readonly LoadResult[],
  ): Promise<void> {
    const rows = await this.readForKeys('SELECT session_id FROM etl_session_state WHERE session_id IN', ids);
    const known = new Set(rows.map((row) => String(row.session_id)));
    await this.runForKeys(
      `UPDATE etl_session_state SET present_in_source = true, absent_since_run = NULL, last_seen_run = $2
        WHERE session_id IN`,
      ids,
      [runId],
    );
    const written = results
      .filter((r) => r.action === 'insert' || r.action === 'replace')
      .map((r) => r.sessionId);
    await this.runForKeys(
      'UPDATE etl_session_state SET last_changed_run = $2 WHERE session_id IN',
      written.filter((id) => known.has(id)),
      [runId],
    );
    // By the ledger, not the action: a Parquet run's staging holds no archived rows, so it only inserts.
    await appendChanges(
      this.connection,
      runId,
      written.map((sessionId) => ({ sessionId, change: known.has(sessionId) ? 'replaced' : 'inserted' })),
    );
    const changedNow = new Set(written);
    await appendToTable(
      this.connection,
      sessionStateTable,
      ids
        .filter((id) => !known.has(id))
        .map((id) => ({
          session_id: id,
          present_in_source: true,
          first_seen_run: runId,
          last_seen_run: runId,
          last_changed_run: changedNow.has(id) ? runId : null,
          absent_since_run: null,
        })),
    );
  }

  /**
   * Rewrites the source rows that changed; a row equal to the stored one (every source of a no-op) is
   * left as it is, so a no-op writes no ledger row (its run record counts the sources it skipped).
   * Returns the undiscovered keys.
   */
  private async advanceSources(runId: string, final: LedgerFinal): Promise<string[]> {
    const previous = new Map<string, StoredSource>();
    const stored = this.planned ?? (await readJsonRows(this.connection, STORED_SOURCES_SQL));
    this.planned = null;
    for (const row of stored) previous.set(String(row.source_key), toStoredSource(row));
    const rewritten: Record<string, unknown>[] = [];
    for (const s of final.sources) {
      const before = previous.get(s.sourceKey);
      const checkpoint =
        s.checkpoint === null || s.checkpoint === undefined ? null : canonicalJson(s.checkpoint);
      const lastChanged = s.changed || !before ? runId : before.changed;
      if (sameStoredSource(before, s, final, checkpoint, lastChanged)) continue;
      rewritten.push({
        source_key: s.sourceKey,
        kind: s.kind,
        roots_digest: final.rootsDigest,
        options_digest: final.optionsDigest,
        dev: s.fingerprint.dev,
        ino: s.fingerprint.ino,
        size: s.fingerprint.size,
        mtime_ms: s.fingerprint.mtimeMs,
        sidecars: s.fingerprint.sidecars === undefined ? null : canonicalJson(s.fingerprint.sidecars),
        content_hash: s.fingerprint.contentHash ?? null,
        fingerprint_digest: s.fingerprintDigest,
        checkpoint,
        present: true,
        first_seen_run: before?.first ?? runId,
        last_seen_run: runId,
        last_changed_run: lastChanged,
      });
    }
    await this.runForKeys(
      'DELETE FROM etl_sources WHERE source_key IN',
      rewritten.map((r) => String(r.source_key)),
    );
    await appendToTable(this.connection, sourcesTable, rewritten);
    const scope = {
      rootsDigest: final.rootsDigest,
      discovered: new Set(final.sources.map((s) => s.sourceKey)),
      unreadKinds: final.unreadKinds,
      unreadSources: final.unreadSources,
    };
    return [...previous].filter(([key, p]) => hasVanished(key, p, scope)).map(([key]) => key);
  }

  /**
   * Deletes the memberships of fully read sources whose session the read did not find, in one read
   * and one delete: a query per source (676 at 2,000 sessions) kept the final batch's transaction,
   * and the run, waiting ~1.1 s.
   */
  private async dropUnseenMemberships(fullyRead: ReadonlyMap<string, ReadonlySet<string>>): Promise<void> {
    const rows = await this.readForKeys(
      'SELECT source_key, session_id FROM etl_session_sources WHERE source_key IN',
      [...fullyRead.keys()],
    );
    const stale = rows.filter((row) => !fullyRead.get(String(row.source_key))!.has(String(row.session_id)));
    if (stale.length === 0) return;
    await this.connection.run(
      `DELETE FROM etl_session_sources USING
         (SELECT unnest($1::VARCHAR[]) AS source_key, unnest($2::VARCHAR[]) AS session_id) AS stale
        WHERE etl_session_sources.source_key = stale.source_key
          AND etl_session_sources.session_id = stale.session_id`,
      [
        listValue(stale.map((row) => String(row.source_key))),
        listValue(stale.map((row) => String(row.session_id))),
      ],
    );
  }

  private async retireVanishedSources(vanished: readonly string[]): Promise<void> {
    await this.runForKeys('UPDATE etl_sources SET present = false WHERE source_key IN', vanished);
    await this.runForKeys('DELETE FROM etl_session_sources WHERE source_key IN', vanished);
  }

  /** Runs `<sql> (<keys>)` with the keys bound as one list parameter ($1), skipped when there are none. */
  private async runForKeys(sql: string, keys: readonly string[], rest: DuckDBValue[] = []): Promise<void> {
    if (keys.length === 0) return;
    await this.connection.run(keyListSql(sql), [listValue([...keys]), ...rest]);
  }

  /** Reads `<sql> (<keys>)` with the keys bound as one list parameter ($1); no rows when there are none. */
  private async readForKeys(sql: string, keys: readonly string[]): Promise<Record<string, unknown>[]> {
    if (keys.length === 0) return [];
    return readJsonRows(this.connection, keyListSql(sql), [listValue([...keys])]);
  }
}

interface StoredSource {
  kind: string;
  fingerprintDigest: string;
  optionsDigest: string;
  rootsDigest: string;
  present: boolean;
  checkpoint: string | null;
  first: string;
  changed: string;
}

function toStoredSource(row: Record<string, unknown>): StoredSource {
  return {
    kind: String(row.kind),
    fingerprintDigest: String(row.fingerprint_digest),
    optionsDigest: String(row.options_digest),
    rootsDigest: String(row.roots_digest),
    present: row.present === true,
    checkpoint: row.checkpoint === null ? null : String(row.checkpoint),
    first: String(row.first_seen_run),
    changed: String(row.last_changed_run),
  };
}

/** The fingerprint digest covers dev/ino/size/mtime/sidecars/content hash, so those need no compare. */
function sameStoredSource(
  stored: StoredSource | undefined,
  source: SourceAdvance,
  final: LedgerFinal,
  checkpoint: string | null,
  lastChanged: string,
): boolean {
  return (
    stored?.present === true &&
    stored.kind === source.kind &&
    stored.fingerprintDigest === source.fingerprintDigest &&
    stored.optionsDigest === final.optionsDigest &&
    stored.rootsDigest === final.rootsDigest &&
    stored.checkpoint === checkpoint &&
    stored.changed === lastChanged
  );
}

/** `<sql> (<the $1 list's elements>)`: one bound list instead of chunks of placeholders. */
function keyListSql(sql: string): string {
  return `${sql} (SELECT unnest($1::VARCHAR[]))`;
}
