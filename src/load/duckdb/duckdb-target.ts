/**
 * The DuckDB warehouse target: whole-session replace-safe upserts. Each batch compares digests,
 * then in one transaction deletes every row of replaced sessions and appends all rows of inserted
 * and replaced ones through the appender, so each session is either fully old or fully new.
 */

import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { runsTable } from '../../../schemas/ledger-tables.js';
import {
  CONTENT_TABLES,
  diagnosticsTable,
  type FileEditRow,
  fileEditsTable,
  messagesTable,
  type RowProvenanceRow,
  rowProvenanceTable,
  type SourceInstanceRow,
  sessionsTable,
  sourceInstancesTable,
  toolCallsTable,
  usageTable,
} from '../../../schemas/tables.js';
import { collectGarbage } from '../../shared/collect-garbage.js';
import type { Diagnostic } from '../../shared/diagnostic.js';
import { faultPoint } from '../../shared/fault-injection.js';
import { canonicalJson } from '../../shared/json/canonical-json.js';
import {
  parsePolicy,
  REDACTION_POLICY_KEY,
  type RedactionPolicy,
  samePolicy,
  serializePolicy,
} from '../../shared/redaction-policy.js';
import type { NormalizedSession } from '../../transform/normalized-session.js';
import { applyMessageIds, messageIdsSql } from '../origin-message-ids.js';
import { planLoads, sessionsNeedingMessageIds } from '../plan-loads.js';
import { type ArchivedState, DEFAULT_LOAD_POLICY, type LoadPolicy } from '../replace-decision.js';
import type { LedgerBatch } from '../sync-ledger.js';
import type {
  ArchiveRewrite,
  LoadResult,
  RunCounts,
  RunInfo,
  RunStatus,
  WarehouseTarget,
} from '../target.js';
import { undashedCompactSessionsSql } from '../undashed-compact-sessions.js';
import { guardWrite } from '../write-failure.js';
import { readArchivedStates } from './archived-states.js';
import {
  closingVacuum,
  DEFER_VACUUM_SQL,
  recordDeferredRuns,
  storedDeferredRuns,
} from './deferred-vacuum.js';
import { DuckDbLedger } from './duckdb-ledger.js';
import { type DuckDbWarehouse, openWarehouse } from './duckdb-warehouse.js';
import { rebuildWarehouse } from './rebuild-warehouse.js';
import { appendToTable, placeholders } from './row-appender.js';
import { WRITER_ROW_GROUP_ROWS } from './run-memory.js';
import { recordSetAsideInstances } from './set-aside-instances.js';
import { largestRowValueBytes } from './value-memory.js';
import { writeMetaValue } from './warehouse-version.js';

export class DuckDbTarget implements WarehouseTarget {
  readonly kind = 'duckdb' as const;
  ledger: DuckDbLedger;
  private diagnosticSeq = 0;
  /** Session rows this run wrote: only a run that wrote none may skip the close checkpoint. */
  private sessionRowsWritten = 0;

  private constructor(
    private warehouse: DuckDbWarehouse,
    private readonly path: string,
    private readonly reportedAs: 'duckdb' | 'parquet',
  ) {
    this.ledger = new DuckDbLedger(warehouse.connection);
  }

  /** `reportedAs` names the user's target in write errors (the Parquet target stages in DuckDB). */
  static async open(path: string, reportedAs: 'duckdb' | 'parquet' = 'duckdb'): Promise<DuckDbTarget> {
    const warehouse = await guardWrite(reportedAs, 'open', () => openWarehouse(path, 'write'));
    return new DuckDbTarget(warehouse, path, reportedAs);
  }

  get redactionPolicy(): RedactionPolicy | null {
    return parsePolicy(this.warehouse.meta?.get(REDACTION_POLICY_KEY));
  }

  /** Rebuilds the file through the rewrite (rebuild-warehouse.ts) and reopens it. */
  async rewriteArchive(rewrite: ArchiveRewrite): Promise<number> {
    // An empty warehouse (a first run) holds nothing to rewrite; the run stores the policy.
    const held = await this.connection.runAndReadAll(
      'SELECT (SELECT count(*) FROM sessions) + (SELECT count(*) FROM diagnostics) AS n',
    );
    if (Number(held.getRowObjects()[0]?.n ?? 0) === 0) return 0;
    await this.connection.run('CHECKPOINT');
    this.warehouse.close();
    const sessions = await rebuildWarehouse(this.path, rewrite);
    this.warehouse = await guardWrite(this.reportedAs, 'open', () => openWarehouse(this.path, 'write'));
    this.ledger = new DuckDbLedger(this.warehouse.connection);
    return sessions;
  }

  private get connection(): DuckDBConnection {
    return this.warehouse.connection;
  }

  async beginRun(run: RunInfo): Promise<void> {
    await this.inTransaction(async () => {
      // The caller holds the run lock, so any run still marked running died without finishing.
      await this.connection.run("UPDATE etl_runs SET status = 'interrupted' WHERE status = 'running'");
      // The policy is stored before any row of the run, so rows never outrun it.
      if (run.redaction && !samePolicy(this.redactionPolicy, run.redaction)) {
        await writeMetaValue(this.connection, REDACTION_POLICY_KEY, serializePolicy(run.redaction));
      }
      await appendToTable(this.connection, runsTable, [
        {
          run_id: run.runId,
          started_at: run.startedAtMs,
          finished_at: null,
          status: 'running',
          mode: run.mode,
          options_digest: run.optionsDigest,
          sources_seen: 0,
          sources_skipped_unchanged: 0,
          sessions_inserted: 0,
          sessions_replaced: 0,
          sessions_unchanged: 0,
          sessions_kept_complete: 0,
          sessions_ambiguous: 0,
          diagnostics: 0,
          sessions_marked_absent: 0,
          payload_bytes_read: 0,
          owner_pid: process.pid,
          origin: run.origin ?? null,
        },
      ]);
    });
  }

  async loadBatch(
    sessions: readonly NormalizedSession[],
    ledger?: LedgerBatch,
    policy: LoadPolicy = DEFAULT_LOAD_POLICY,
  ): Promise<LoadResult[]> {
    // Comparing with the archived rows aggregates their provenance, and a replace holds both
    // versions: the pool is sized as if each incoming session replaced one of its size.
    const incoming = sessions.reduce((n, s) => n + sessionRows(s), 0);
    if (incoming > 0) await this.warehouse.fitSmallRun(this.sessionRowsWritten + incoming);
    await this.warehouse.fitRows(2 * incoming);
    const archived =
      sessions.length === 0
        ? new Map<string, ArchivedState>()
        : await readArchivedStates(
            this.connection,
            sessions.map((s) => s.session.session_id),
          );
    await this.fillMessageIds(sessions, archived);
    const { results, writes, relocated, setAside, editsRefreshed } = planLoads(sessions, archived, policy);
    if (
      writes.length === 0 &&
      relocated.length === 0 &&
      setAside.length === 0 &&
      editsRefreshed.length === 0 &&
      ledger === undefined
    )
      return results;
    const replaced = results.filter((r) => r.action === 'replace').map((r) => r.sessionId);
    let rows = 0;
    const appending = writes.reduce((n, s) => n + sessionRows(s), 0);
    await this.inTransaction(async () => {
      faultPoint('batch-begun');
      if (replaced.length > 0) {
        let deleted = 0;
        for (const table of CONTENT_TABLES) {
          const result = await this.connection.run(
            `DELETE FROM ${table.name} WHERE session_id IN (${placeholders(replaced.length)})`,
            replaced,
          );
          deleted += result.rowsChanged;
        }
        // The archived versions may be larger than the incoming ones.
        await this.warehouse.fitRows(appending + deleted);
        faultPoint('batch-deleted');
      }
      if (relocated.length > 0) {
        // Provenance is updated in place: the content rows and the digest stay as they are.
        const ids = relocated.map((s) => s.session.session_id);
        for (const table of [sourceInstancesTable, rowProvenanceTable]) {
          await this.connection.run(
            `DELETE FROM ${table.name} WHERE session_id IN (${placeholders(ids.length)})`,
            ids,
          );
        }
        const instances = relocated.flatMap((s) => s.sourceInstances);
        const provenance = relocated.flatMap((s) => s.rowProvenance);
        await appendToTable(this.connection, sourceInstancesTable, instances);
        await appendToTable(this.connection, rowProvenanceTable, provenance);
        rows += instances.length + provenance.length;
      }
      rows += await recordSetAsideInstances(this.connection, setAside);
      if (editsRefreshed.length > 0) rows += await this.refreshFileEdits(editsRefreshed);
      if (writes.length > 0) {
        const messages = writes.flatMap((s) => s.messages);
        const toolCalls = writes.flatMap((s) => s.toolCalls);
        const sourceInstances = writes.flatMap((s) => s.sourceInstances);
        const rowProvenance = writes.flatMap((s) => s.rowProvenance);
        const fileEdits = writes.flatMap((s) => s.fileEdits);
        const usage = writes.flatMap((s) => s.usage);
        await this.warehouse.fitValue(
          largestRowValueBytes(
            writes.map((s) => s.session),
            messages,
            toolCalls,
            sourceInstances,
          ),
        );
        await appendToTable(
          this.connection,
          sessionsTable,
          writes.map((s) => s.session),
        );
        await appendToTable(this.connection, messagesTable, messages);
        await appendToTable(this.connection, toolCallsTable, toolCalls);
        await appendToTable(this.connection, sourceInstancesTable, sourceInstances);
        await appendToTable(this.connection, rowProvenanceTable, rowProvenance);
        await appendToTable(this.connection, fileEditsTable, fileEdits);
        await appendToTable(this.connection, usageTable, usage);
        faultPoint('batch-appended');
        rows += appending;
      }
      if (ledger !== undefined) {
        await this.ledger.writeBatch(ledger, results);
        faultPoint('batch-ledger-written');
        if (ledger.final) {
          ledger.final.outcome.markedAbsent = await this.ledger.writeFinal(ledger.runId, ledger.final);
          // A Parquet staging warehouse holds only this run's rows: the dataset retires them as it builds.
          if (this.reportedAs === 'duckdb') await this.retireUndashedCompactSessions();
          faultPoint('final-ledger-written');
        }
      }
    });
    faultPoint('batch-committed');
    this.sessionRowsWritten += rows;
    return results;
  }

  /** Replaces the `file_edits` rows of unchanged sessions (their content rows and digest stay). */
  private async refreshFileEdits(sessions: readonly NormalizedSession[]): Promise<number> {
    const ids = sessions.map((s) => s.session.session_id);
    await this.connection.run(
      `DELETE FROM ${fileEditsTable.name} WHERE session_id IN (${placeholders(ids.length)})`,
      ids,
    );
    const edits = sessions.flatMap((s) => s.fileEdits);
    await appendToTable(this.connection, fileEditsTable, edits);
    return edits.length;
  }

  /**
   * Appends `file_edits` rows alone, for a Parquet staging warehouse: an unchanged session's content
   * stays in the published state while its refreshed edits are staged.
   */
  async stageFileEdits(edits: readonly FileEditRow[]): Promise<void> {
    if (edits.length === 0) return;
    await this.inTransaction(() => appendToTable(this.connection, fileEditsTable, edits));
  }

  /** Deletes the undashed compact Store sessions of older builds (undashed-compact-sessions.ts). */
  private async retireUndashedCompactSessions(): Promise<void> {
    const retired = await this.connection.runAndReadAll(
      undashedCompactSessionsSql(sourceInstancesTable.name),
    );
    const ids = retired.getRowObjects().map((row) => String(row.session_id));
    if (ids.length === 0) return;
    for (const table of [...CONTENT_TABLES.map((t) => t.name), 'etl_session_sources', 'etl_session_state'])
      await this.connection.run(
        `DELETE FROM ${table} WHERE session_id IN (${placeholders(ids.length)})`,
        ids,
      );
  }

  /**
   * Appends provenance rows alone, for a Parquet staging warehouse: a relocated session's content
   * stays in the published state while its new provenance is staged.
   */
  async stageProvenance(
    instances: readonly SourceInstanceRow[],
    provenance: readonly RowProvenanceRow[],
  ): Promise<void> {
    if (instances.length === 0 && provenance.length === 0) return;
    await this.inTransaction(async () => {
      await appendToTable(this.connection, sourceInstancesTable, instances);
      await appendToTable(this.connection, rowProvenanceTable, provenance);
    });
  }

  async recordDiagnostics(runId: string, diagnostics: readonly Diagnostic[]): Promise<void> {
    if (diagnostics.length === 0) return;
    const rows = diagnostics.map((d) => ({
      run_id: runId,
      seq: this.diagnosticSeq++,
      code: d.code,
      severity: d.severity,
      message: d.message,
      session_id: d.sessionId ?? null,
      source_ref: d.sourceRef ?? null,
      details: canonicalJson(d.details),
    }));
    await this.inTransaction(() => appendToTable(this.connection, diagnosticsTable, rows));
  }

  async finishRun(
    runId: string,
    status: RunStatus,
    finishedAtMs: number,
    counts: RunCounts,
    payloadBytesRead = 0,
  ): Promise<void> {
    const values: DuckDBValue[] = [
      status,
      finishedAtMs,
      counts.sourcesSeen,
      counts.sourcesSkippedUnchanged,
      counts.sessionsInserted,
      counts.sessionsReplaced,
      counts.sessionsUnchanged,
      counts.sessionsKeptComplete,
      counts.sessionsAmbiguous,
      counts.diagnostics,
      counts.sessionsMarkedAbsent,
      payloadBytesRead,
      runId,
    ];
    const sql = `UPDATE etl_runs SET status = $1, finished_at = make_timestamp($2::BIGINT * 1000) AT TIME ZONE 'UTC', sources_seen = $3,
         sources_skipped_unchanged = $4, sessions_inserted = $5, sessions_replaced = $6, sessions_unchanged = $7,
         sessions_kept_complete = $8, sessions_ambiguous = $9, diagnostics = $10, sessions_marked_absent = $11,
         payload_bytes_read = $12 WHERE run_id = $13`;
    await guardWrite(this.reportedAs, 'run-record', () => this.connection.run(sql, values));
  }

  async close(): Promise<void> {
    try {
      // Session rows are checkpointed at close, so the file alone holds them (docs/operations.md).
      const wrote = this.sessionRowsWritten > 0;
      if (wrote) await this.prepareClosingVacuum();
      const kept = !wrote && (await this.warehouse.keepSmallWal());
      if (!kept) {
        // The closing checkpoint (and a Parquet build after it) is where RSS peaks; dead rows go first.
        // A run under a row group of rows holds few: a full collection would be its largest cost.
        if (this.sessionRowsWritten >= WRITER_ROW_GROUP_ROWS) collectGarbage();
        // Explicit, because the one DuckDB runs on close swallows its error: a full disk would leave
        // the rows only in the WAL behind a "committed" run.
        await guardWrite(this.reportedAs, 'checkpoint', () => this.connection.run('CHECKPOINT'));
      }
    } finally {
      this.warehouse.close();
    }
  }

  private async prepareClosingVacuum(): Promise<void> {
    try {
      const before = await storedDeferredRuns(this.connection);
      const vacuum = closingVacuum(this.sessionRowsWritten, before);
      if (vacuum.deferredRuns !== before) {
        await this.inTransaction(() => recordDeferredRuns(this.connection, vacuum.deferredRuns));
      }
      if (vacuum.defer) await this.connection.run(DEFER_VACUUM_SQL);
    } catch {
      // After a failed write the connection may be unusable; the checkpoint then merges as usual, and
      // the run reports the write's own error rather than this one.
    }
  }

  /** Runs a ledger edit that belongs to no run (a change feed cursor) in a transaction of its own. */
  async editLedger(edit: (connection: DuckDBConnection) => Promise<void>): Promise<void> {
    await this.inTransaction(() => edit(this.connection));
  }

  /** The archived message IDs of the sessions two origins' complete views disagree on. */
  private async fillMessageIds(
    sessions: readonly NormalizedSession[],
    archived: Map<string, ArchivedState>,
  ): Promise<void> {
    const ids = sessionsNeedingMessageIds(sessions, archived);
    if (ids.length === 0) return;
    const reader = await this.connection.runAndReadAll(
      `${messageIdsSql('messages')} WHERE session_id IN (${placeholders(ids.length)}) GROUP BY session_id`,
      ids,
    );
    applyMessageIds(reader.getRowObjects(), archived);
  }

  private async inTransaction(work: () => Promise<void>): Promise<void> {
    await guardWrite(this.reportedAs, 'transaction', async () => {
      await this.connection.run('BEGIN TRANSACTION');
      try {
        await work();
        await this.connection.run('COMMIT');
      } catch (error) {
        // A failed COMMIT may leave nothing to roll back (or an invalidated database): keep the cause.
        await this.connection.run('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }
}

/** The rows a session adds across the content tables. */
function sessionRows(s: NormalizedSession): number {
  return (
    1 +
    s.messages.length +
    s.toolCalls.length +
    s.sourceInstances.length +
    s.rowProvenance.length +
    s.fileEdits.length +
    s.usage.length
  );
}
