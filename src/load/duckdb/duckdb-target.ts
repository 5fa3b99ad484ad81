/**
 * The DuckDB warehouse target: whole-session replace-safe upserts. Each batch compares digests,
 * then in one transaction deletes every row of replaced sessions and appends all rows of inserted
 * and replaced ones through the appender, so each session is either fully old or fully new.
 */
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { runsTable } from '../../../schemas/ledger-tables.js';
import type { ColumnSpec, TableDefinition } from '../../../schemas/table-definition.js';
import {
  CONTENT_TABLES,
  diagnosticsTable,
  messagesTable,
  sessionsTable,
  sourceInstancesTable,
  toolCallsTable,
} from '../../../schemas/tables.js';
import type { Diagnostic } from '../../shared/diagnostic.js';
import { canonicalJson } from '../../transform/canonical-json.js';
import type { NormalizedSession } from '../../transform/normalized-session.js';
import { type ArchivedState, decideLoad } from '../replace-decision.js';
import type { LoadResult, RunCounts, RunInfo, RunStatus, WarehouseTarget } from '../target.js';
import { type OpenedWarehouse, openWarehouse } from './duckdb-warehouse.js';
import { appendRows } from './row-appender.js';

type AnyTable = TableDefinition<Record<string, ColumnSpec>>;

function placeholders(count: number, offset = 0): string {
  return Array.from({ length: count }, (_, i) => `$${i + 1 + offset}`).join(', ');
}

export class DuckDbTarget implements WarehouseTarget {
  readonly kind = 'duckdb' as const;
  private diagnosticSeq = 0;

  private constructor(private readonly warehouse: OpenedWarehouse) {}

  static async open(path: string): Promise<DuckDbTarget> {
    return new DuckDbTarget(await openWarehouse(path, 'write'));
  }

  private get connection(): DuckDBConnection {
    return this.warehouse.connection;
  }

  async beginRun(run: RunInfo): Promise<void> {
    await this.appendInTransaction(runsTable as unknown as AnyTable, [
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
      },
    ]);
  }

  async loadBatch(sessions: readonly NormalizedSession[]): Promise<LoadResult[]> {
    if (sessions.length === 0) return [];
    const archived = await this.archivedStates(sessions.map((s) => s.session.session_id));
    const results: LoadResult[] = sessions.map((s) => ({
      sessionId: s.session.session_id,
      action: decideLoad(archived.get(s.session.session_id), {
        viewDigest: s.session.view_digest,
        fidelity: s.session.fidelity,
        resolutionState: s.session.resolution_state,
      }),
    }));
    const writes = sessions.filter(
      (_, i) => results[i]!.action === 'insert' || results[i]!.action === 'replace',
    );
    if (writes.length === 0) return results;
    const replaced = results.filter((r) => r.action === 'replace').map((r) => r.sessionId);
    await this.connection.run('BEGIN TRANSACTION');
    try {
      if (replaced.length > 0) {
        for (const table of CONTENT_TABLES) {
          await this.connection.run(
            `DELETE FROM ${table.name} WHERE session_id IN (${placeholders(replaced.length)})`,
            replaced,
          );
        }
      }
      await this.append(
        sessionsTable as unknown as AnyTable,
        writes.map((s) => s.session),
      );
      await this.append(
        messagesTable as unknown as AnyTable,
        writes.flatMap((s) => s.messages),
      );
      await this.append(
        toolCallsTable as unknown as AnyTable,
        writes.flatMap((s) => s.toolCalls),
      );
      await this.append(
        sourceInstancesTable as unknown as AnyTable,
        writes.flatMap((s) => s.sourceInstances),
      );
      await this.connection.run('COMMIT');
    } catch (error) {
      await this.connection.run('ROLLBACK');
      throw error;
    }
    return results;
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
    await this.appendInTransaction(diagnosticsTable as unknown as AnyTable, rows);
  }

  async finishRun(runId: string, status: RunStatus, finishedAtMs: number, counts: RunCounts): Promise<void> {
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
      runId,
    ];
    await this.connection.run(
      `UPDATE etl_runs SET status = $1, finished_at = make_timestamp($2::BIGINT * 1000), sources_seen = $3,
         sources_skipped_unchanged = $4, sessions_inserted = $5, sessions_replaced = $6, sessions_unchanged = $7,
         sessions_kept_complete = $8, sessions_ambiguous = $9, diagnostics = $10 WHERE run_id = $11`,
      values,
    );
  }

  async close(): Promise<void> {
    this.warehouse.close();
  }

  private async archivedStates(ids: string[]): Promise<Map<string, ArchivedState>> {
    const reader = await this.connection.runAndReadAll(
      `SELECT session_id, view_digest, fidelity FROM sessions WHERE session_id IN (${placeholders(ids.length)})`,
      ids,
    );
    const map = new Map<string, ArchivedState>();
    for (const row of reader.getRowObjects()) {
      map.set(String(row.session_id), {
        viewDigest: String(row.view_digest),
        fidelity: row.fidelity === 'complete' ? 'complete' : 'partial',
      });
    }
    return map;
  }

  private async append(table: AnyTable, rows: readonly Record<string, unknown>[]): Promise<void> {
    if (rows.length === 0) return;
    const appender = await this.connection.createAppender(table.name);
    appendRows(appender, table, rows);
    appender.closeSync();
  }

  private async appendInTransaction(
    table: AnyTable,
    rows: readonly Record<string, unknown>[],
  ): Promise<void> {
    await this.connection.run('BEGIN TRANSACTION');
    try {
      await this.append(table, rows);
      await this.connection.run('COMMIT');
    } catch (error) {
      await this.connection.run('ROLLBACK');
      throw error;
    }
  }
}
