/**
 * The Parquet dataset target: a run stages its rows in a private DuckDB file through the DuckDB
 * target (same ledger and load code), and `finishRun` builds a new state directory and publishes it
 * by atomically replacing `CURRENT`. Until then the previous state stays published.
 */

import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import {
  fileEditsTable,
  type RowProvenanceRow,
  rowProvenanceTable,
  type SourceInstanceRow,
  sessionsTable,
  sourceInstancesTable,
} from '../../../schemas/tables.js';
import type { Diagnostic } from '../../shared/diagnostic.js';
import { faultPoint } from '../../shared/fault-injection.js';
import { canonicalJson } from '../../shared/json/canonical-json.js';
import { outputModes } from '../../shared/output-permissions.js';
import { acquireRunLock } from '../../shared/process/run-lock.js';
import { parsePolicy, type RedactionPolicy } from '../../shared/redaction-policy.js';
import type { NormalizedSession } from '../../transform/normalized-session.js';
import {
  CURSOR_CONTRIBUTION_SQL,
  LIVE_CONTRIBUTION_SQL,
  NO_ROW_PROVENANCE_KEY,
  PROVENANCE_KEY_SQL,
  provenanceKey,
  ROW_PROVENANCE_KEY_SQL,
  splitProvenanceKey,
} from '../carrier-provenance.js';
import { DuckDBInstance } from '../duckdb/duckdb-api.js';
import type { DuckDbTarget } from '../duckdb/duckdb-target.js';
import { openWarehouse } from '../duckdb/duckdb-warehouse.js';
import { rewriteRows } from '../duckdb/rewrite-rows.js';
import { sqlList, sqlString } from '../duckdb/sql-string.js';
import { connectInUtc } from '../duckdb/utc-connection.js';
import type { AnyTable } from '../export/export-tables.js';
import { NO_FILE_EDITS_SIGNATURE } from '../file-edits-signature.js';
import { writeFileDurably } from '../fs/durable-file.js';
import { planLoads } from '../plan-loads.js';
import type { ArchivedState, LoadPolicy } from '../replace-decision.js';
import type { LedgerBatch, SyncLedgerStore } from '../sync-ledger.js';
import type {
  ArchiveRewrite,
  LoadResult,
  RunCounts,
  RunInfo,
  RunStatus,
  WarehouseTarget,
} from '../target.js';
import { guardWrite } from '../write-failure.js';
import { withBuildConnection } from './build-connection.js';
import { buildState } from './build-state.js';
import { checkPublishedState } from './checked-state.js';
import { collectStates } from './collect-states.js';
import { assertDatasetDirectory, BUCKET_SQL, bucketOf, DatasetLayout } from './dataset-layout.js';
import {
  type DatasetManifest,
  readCurrentManifest,
  readCurrentStateId,
  writeManifest,
} from './dataset-manifest.js';
import { DATASET_TABLES, readFilesSql, stateFiles } from './dataset-reader.js';
import { type LinkRefusal, linkRefusal, linksUnavailable } from './link-or-copy.js';
import { publishedEditCounts } from './published-edit-counts.js';
import { fillPublishedMessageIds } from './published-message-ids.js';
import { openStaging } from './seed-staging.js';

export class ParquetTarget implements WarehouseTarget {
  readonly kind = 'parquet' as const;
  private finished = false;
  private stagingOpen = true;
  private policy: RedactionPolicy | null;
  /** Said by this run when a link was refused while it published (not already said at open). */
  readonly publishDiagnostics: Diagnostic[] = [];
  /** Unchanged sessions by the provenance (or `file_edits`) table whose rows this run rewrites. */
  private readonly provenanceOnly = new Map<string, Set<string>>(
    [sourceInstancesTable, rowProvenanceTable, fileEditsTable].map((t) => [t.name, new Set()]),
  );

  private constructor(
    private readonly layout: DatasetLayout,
    private previous: DatasetManifest | null,
    private stagingDir: string,
    private staging: DuckDbTarget,
    private readonly reader: { instance: DuckDBInstance; connection: DuckDBConnection },
    private readonly releaseLock: () => void,
    private readonly rebuildBuckets: ReadonlySet<string>,
    readonly openDiagnostics: readonly Diagnostic[],
  ) {
    this.policy = parsePolicy(previous?.redaction);
  }

  static async open(root: string): Promise<ParquetTarget> {
    const layout = new DatasetLayout(root);
    assertDatasetDirectory(root);
    await guardWrite('parquet', 'open', () =>
      mkdirSync(layout.statesDir, { recursive: true, mode: outputModes().dir }),
    );
    // The dataset's own lock keeps it single-writer even when opened outside `etl run`.
    const lock = await guardWrite('parquet', 'lock', () => acquireRunLock(layout.lockBase));
    const releaseLock = (): void => lock.release();
    let reader: { instance: DuckDBInstance; connection: DuckDBConnection } | null = null;
    try {
      const instance = await DuckDBInstance.create(':memory:');
      reader = { instance, connection: await connectInUtc(instance) };
      const published = readCurrentManifest(layout);
      const checked = await guardWrite('parquet', 'open', () =>
        checkPublishedState(layout, published, reader!.connection),
      );
      const { previous } = checked;
      // Only the lock holder gets here, so anything left in staging is a dead writer's residue.
      rmSync(layout.stagingDir, { recursive: true, force: true });
      const { stagingDir, staging } = await openStaging(layout, previous);
      const diagnostics = [...checked.diagnostics];
      const refusal =
        previous === null ? null : linkRefusal(layout.manifestFile(previous.stateId), stagingDir);
      if (refusal !== null) diagnostics.push(linksUnavailable(refusal));
      return new ParquetTarget(
        layout,
        previous,
        stagingDir,
        staging,
        reader,
        releaseLock,
        checked.rebuildBuckets,
        diagnostics,
      );
    } catch (error) {
      reader?.connection.closeSync();
      reader?.instance.closeSync();
      releaseLock();
      throw error;
    }
  }

  /** Whether the run said at open that the storage refuses links. */
  private get linksSaid(): boolean {
    return this.openDiagnostics.some((d) => d.code === 'DATASET_LINKS_UNAVAILABLE');
  }

  private get stagingFile(): string {
    return join(this.stagingDir, 'stage.duckdb');
  }

  /** The sync ledger lives in the staging warehouse, seeded from the published state's ledger. */
  get ledger(): SyncLedgerStore {
    return this.staging.ledger;
  }

  get redactionPolicy(): RedactionPolicy | null {
    return parsePolicy(this.previous?.redaction);
  }

  beginRun(run: RunInfo): Promise<void> {
    if (run.redaction !== undefined) this.policy = run.redaction;
    return this.staging.beginRun(run);
  }

  /**
   * Publishes the rewritten archive as a state of its own, with no predecessor: every other state,
   * holding the old rows, is removed at once (retention does not apply to them), and the run then
   * stages against the new state.
   */
  async rewriteArchive(rewrite: ArchiveRewrite): Promise<number> {
    const previous = this.previous;
    if (previous === null) return 0;
    await this.closeStaging();
    rmSync(this.stagingDir, { recursive: true, force: true });
    const stateId = `${new Date().toISOString().replace(/[-:.]/g, '')}-rewrite-${randomUUID().slice(0, 8)}`;
    const dir = join(this.layout.stagingDir, stateId);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, 'stage.duckdb');
    try {
      const stage = await openWarehouse(file, 'write');
      let sessions: number;
      try {
        const from = (table: string): string => {
          const definition = DATASET_TABLES.find((t) => t.name === table)!;
          const files = stateFiles(this.layout, previous, table);
          return files.length === 0
            ? `(SELECT * FROM ${table} WHERE false)`
            : `(${readFilesSql(definition, files)})`;
        };
        sessions = await rewriteRows(stage.connection, from, rewrite);
        await stage.connection.run('CHECKPOINT');
      } finally {
        stage.close();
      }
      const now = Date.now();
      const manifest = await withBuildConnection(file, async (staging) => {
        await staging.run(
          `CREATE TEMP TABLE staged_sessions AS SELECT session_id, ${BUCKET_SQL} AS bucket FROM sessions`,
        );
        const touched = (
          await staging.runAndReadAll('SELECT DISTINCT bucket FROM staged_sessions')
        ).getRows();
        return buildState({
          layout: this.layout,
          staging,
          previous: null,
          runId: stateId,
          touchedBuckets: new Set(touched.map((row) => String(row[0]))),
          publishedAtMs: now,
          redaction: rewrite.policy,
        });
      });
      await guardWrite('parquet', 'manifest', () => writeManifest(this.layout, manifest));
      await guardWrite('parquet', 'publish-current', () =>
        writeFileDurably(this.layout.currentPointer, `${stateId}\n`),
      );
      collectStates(this.layout, manifest, now);
      this.previous = manifest;
      this.policy = rewrite.policy;
      return sessions;
    } finally {
      rmSync(dir, { recursive: true, force: true });
      ({ stagingDir: this.stagingDir, staging: this.staging } = await openStaging(
        this.layout,
        this.previous,
      ));
      this.stagingOpen = true;
    }
  }

  async loadBatch(
    sessions: readonly NormalizedSession[],
    ledger?: LedgerBatch,
    policy?: LoadPolicy,
  ): Promise<LoadResult[]> {
    const archived = await this.archivedStates(sessions.map((s) => s.session.session_id));
    await fillPublishedMessageIds(this.reader.connection, this.layout, this.previous, sessions, archived);
    const { results, writes, relocated, editsRefreshed } = planLoads(sessions, archived, policy);
    // The staging tables start empty, so the staged sessions are exactly the writes of this run.
    // The ledger only records which of them were written, so it sees the same outcome as here.
    await this.staging.loadBatch(writes, ledger);
    // A relocated session stages only the provenance half that changed, so its content partitions
    // stay linked; the ledger never sees it as written.
    const instances: SourceInstanceRow[] = [];
    const rows: RowProvenanceRow[] = [];
    for (const session of relocated) {
      const id = session.session.session_id;
      const before = splitProvenanceKey(archived.get(id)!.provenance!);
      const after = splitProvenanceKey(provenanceKey(session.sourceInstances, session.rowProvenance));
      if (before.instances !== after.instances) {
        instances.push(...session.sourceInstances);
        this.provenanceOnly.get(sourceInstancesTable.name)!.add(id);
      }
      if (before.rows !== after.rows) {
        rows.push(...session.rowProvenance);
        this.provenanceOnly.get(rowProvenanceTable.name)!.add(id);
      }
    }
    await this.staging.stageProvenance(instances, rows);
    for (const s of editsRefreshed) this.provenanceOnly.get(fileEditsTable.name)!.add(s.session.session_id);
    await this.staging.stageFileEdits(editsRefreshed.flatMap((s) => s.fileEdits));
    return results;
  }

  recordDiagnostics(runId: string, diagnostics: readonly Diagnostic[]): Promise<void> {
    return this.staging.recordDiagnostics(runId, diagnostics);
  }

  async finishRun(
    runId: string,
    status: RunStatus,
    finishedAtMs: number,
    counts: RunCounts,
    payloadBytesRead?: number,
  ): Promise<void> {
    // A failure while publishing must not be retried as a `failed` publication of the same run.
    if (this.finished) return;
    this.finished = true;
    await this.staging.finishRun(runId, status, finishedAtMs, counts, payloadBytesRead);
    await this.closeStaging();
    await this.publish(runId, finishedAtMs);
  }

  /** Publishes a ledger edit with no run as a state of its own (a change feed cursor); ends the target's use. */
  async publishLedgerEdit(stateId: string, atMs: number, edit: (c: DuckDBConnection) => Promise<void>) {
    this.finished = true;
    await this.staging.editLedger(edit);
    await this.closeStaging();
    await this.publish(stateId, atMs);
  }

  private async publish(stateId: string, atMs: number): Promise<void> {
    let manifest: DatasetManifest;
    try {
      manifest = await guardWrite('parquet', 'state-files', () => this.buildState(stateId, atMs));
      await guardWrite('parquet', 'manifest', () => writeManifest(this.layout, manifest));
      faultPoint('parquet-state-built');
      await guardWrite('parquet', 'publish-current', () =>
        writeFileDurably(this.layout.currentPointer, `${stateId}\n`),
      );
    } catch (error) {
      this.discardUnpublished(stateId);
      throw error;
    }
    // After the commit point a failure must say so: the new state is published whatever happens here.
    await guardWrite('parquet', 'collect-states', () => collectStates(this.layout, manifest, atMs), {
      published: true,
    });
  }

  /** Removes this run's state directory unless `CURRENT` names it (a rename done before a failed fsync). */
  private discardUnpublished(runId: string): void {
    try {
      if (readCurrentStateId(this.layout) !== runId)
        rmSync(this.layout.stateDir(runId), { recursive: true, force: true });
    } catch {
      // Left for the next publication's collection, which removes every unpublished state.
    }
  }

  private buildState(runId: string, finishedAtMs: number): Promise<DatasetManifest> {
    return withBuildConnection(this.stagingFile, async (staging) => {
      await staging.run(
        `CREATE TEMP TABLE staged_sessions AS SELECT session_id, ${BUCKET_SQL} AS bucket FROM sessions`,
      );
      const touched = (await staging.runAndReadAll('SELECT DISTINCT bucket FROM staged_sessions')).getRows();
      return buildState({
        layout: this.layout,
        staging,
        previous: this.previous,
        runId,
        touchedBuckets: new Set([...touched.map((row) => String(row[0])), ...this.rebuildBuckets]),
        publishedAtMs: finishedAtMs,
        redaction: this.policy,
        provenanceOnly: this.provenanceOnly,
        onLinkRefused: this.linksSaid
          ? undefined
          : (refusal) => this.sayLinksRefused(staging, runId, refusal),
      });
    });
  }

  /** Stages the run's one `DATASET_LINKS_UNAVAILABLE` and counts it in its `etl_runs` row. */
  private async sayLinksRefused(
    staging: DuckDBConnection,
    runId: string,
    refusal: LinkRefusal,
  ): Promise<void> {
    const said = linksUnavailable(refusal);
    const run = sqlString(runId);
    await staging.run(
      `INSERT INTO diagnostics SELECT ${run}, coalesce(max(seq) + 1, 0), ${sqlString(said.code)}, ${sqlString(said.severity)}, ${sqlString(said.message)}, NULL, NULL, ${sqlString(canonicalJson(said.details))} FROM diagnostics WHERE run_id = ${run}`,
    );
    await staging.run(`UPDATE etl_runs SET diagnostics = diagnostics + 1 WHERE run_id = ${run}`);
    this.publishDiagnostics.push(said);
  }

  async close(): Promise<void> {
    try {
      await this.closeStaging();
      this.reader.connection.closeSync();
      this.reader.instance.closeSync();
      rmSync(this.stagingDir, { recursive: true, force: true });
    } finally {
      this.releaseLock();
    }
  }

  private async closeStaging(): Promise<void> {
    if (!this.stagingOpen) return;
    this.stagingOpen = false;
    await this.staging.close();
  }

  private async archivedStates(ids: string[]): Promise<Map<string, ArchivedState>> {
    const map = new Map<string, ArchivedState>();
    if (ids.length === 0) return map;
    const files = [...new Set(ids.map(bucketOf))].flatMap((b) =>
      stateFiles(this.layout, this.previous, 'sessions', b),
    );
    if (files.length === 0) return map;
    const reader = await this.reader.connection.runAndReadAll(
      `SELECT session_id, view_digest, fidelity, origin, epoch_ms(updated_at) AS updated_ms FROM (${readFilesSql(sessionsTable as unknown as AnyTable, files)}) WHERE session_id IN (SELECT unnest(${sqlList(ids)}))`,
    );
    const contributors = await this.contributors(ids);
    const provenance = await this.provenanceKeys(ids);
    const edits = await publishedEditCounts(this.reader.connection, this.layout, this.previous, ids);
    for (const row of reader.getRowObjects()) {
      const id = String(row.session_id);
      map.set(id, {
        viewDigest: String(row.view_digest),
        fidelity: row.fidelity === 'complete' ? 'complete' : 'partial',
        liveContributed: contributors.live.has(id),
        cursorBacked: contributors.cursor.has(id),
        provenance: `${provenance.instances.get(id) ?? ''}|${provenance.rows.get(id) ?? NO_ROW_PROVENANCE_KEY}`,
        fileEdits: edits.get(id) ?? NO_FILE_EDITS_SIGNATURE,
        origin: row.origin === null ? null : String(row.origin),
        updatedAtMs: row.updated_ms === null ? null : Number(row.updated_ms),
      });
    }
    return map;
  }

  /** The published halves of each session's `provenanceKey`, from its partitions' files. */
  private async provenanceKeys(
    ids: string[],
  ): Promise<{ instances: Map<string, string>; rows: Map<string, string> }> {
    const read = async (table: AnyTable, key: string): Promise<Map<string, string>> => {
      const files = [...new Set(ids.map(bucketOf))].flatMap((b) =>
        stateFiles(this.layout, this.previous, table.name, b),
      );
      if (files.length === 0) return new Map();
      const reader = await this.reader.connection.runAndReadAll(
        `SELECT session_id, ${key} AS k FROM (${readFilesSql(table, files)})
          WHERE session_id IN (SELECT unnest(${sqlList(ids)})) GROUP BY session_id`,
      );
      return new Map(reader.getRowObjects().map((row) => [String(row.session_id), String(row.k)]));
    };
    return {
      instances: await read(sourceInstancesTable as unknown as AnyTable, PROVENANCE_KEY_SQL),
      rows: await read(rowProvenanceTable as unknown as AnyTable, ROW_PROVENANCE_KEY_SQL),
    };
  }

  /** Sessions whose published view has a data-supplying instance from a non-backup carrier, and of Cursor data. */
  private async contributors(ids: string[]): Promise<{ live: Set<string>; cursor: Set<string> }> {
    const files = [...new Set(ids.map(bucketOf))].flatMap((b) =>
      stateFiles(this.layout, this.previous, 'source_instances', b),
    );
    const out = { live: new Set<string>(), cursor: new Set<string>() };
    if (files.length === 0) return out;
    const reader = await this.reader.connection.runAndReadAll(
      `SELECT session_id, bool_or(${LIVE_CONTRIBUTION_SQL}) AS live, bool_or(${CURSOR_CONTRIBUTION_SQL}) AS cursor
         FROM (${readFilesSql(sourceInstancesTable as unknown as AnyTable, files)})
        WHERE session_id IN (SELECT unnest(${sqlList(ids)})) GROUP BY session_id`,
    );
    for (const row of reader.getRowObjects()) {
      if (row.live === true) out.live.add(String(row.session_id));
      if (row.cursor === true) out.cursor.add(String(row.session_id));
    }
    return out;
  }
}
