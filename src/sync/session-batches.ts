/**
 * The batch/load step: sessions gather into batches that load one at a time while the next batch
 * is read, each batch carrying its sessions' ledger memberships.
 */
import type { LedgerFinal, Membership } from '../load/sync-ledger.js';
import type { NormalizedSession } from '../transform/normalized-session.js';
import { withOrigin } from '../transform/session-origin.js';
import type { CatalogEntry } from './catalog-sources.js';
import { membershipsOf } from './ledger/since-last-plan.js';
import { keptSessionDiagnostics } from './load-diagnostics.js';
import type { Plan } from './plan-run.js';
import { tally } from './run-counts.js';
import type { RunState } from './run-state.js';

// Short sessions fill a batch by count: at 200 a batch held fewer message rows than one DuckDB row
// group (2,048) and paid its per-batch statements and commit 2.5 times as often.
const BATCH_SESSIONS = 500;
const BATCH_ROWS = 50_000;
// A batch is held in memory twice (JS rows, then DuckDB's transaction); bounding it by payload bytes
// keeps peak RSS flat whatever the session sizes.
const BATCH_PAYLOAD_BYTES = 8 * 1024 * 1024;

export class SessionBatches {
  private batch: NormalizedSession[] = [];
  private memberships = new Map<string, Membership[]>();
  private batchRows = 0;
  // Payload bytes read up to the last session taken: hydration may run ahead of resolution.
  private takenBytes: number;
  private batchStartBytes: number;
  private readonly discoveredSourceKeys: ReadonlySet<string>;

  constructor(
    private readonly run: RunState,
    plan: Plan,
  ) {
    // An unread source's memberships stay as stored: this run cannot say which sessions it holds.
    this.discoveredSourceKeys = new Set(
      plan.classified.map((c) => c.found.source.sourceKey).filter((key) => !this.unread(key)),
    );
    this.takenBytes = run.ctx.counters.payloadBytes;
    this.batchStartBytes = this.takenBytes;
  }

  private unread(sourceKey: string): boolean {
    return this.run.ctx.unreadSources?.has(sourceKey) ?? false;
  }

  /** A session was taken from hydration (loaded or not) once `bytesRead` payload bytes were read. */
  taken(bytesRead: number): void {
    this.takenBytes = bytesRead;
  }

  /** Adds a taken session; starts loading the batch once it is full. */
  async add(session: NormalizedSession, members: readonly CatalogEntry[]): Promise<void> {
    this.batch.push(withOrigin(session, this.run.options.origin ?? null));
    this.memberships.set(
      session.session.session_id,
      membershipsOf(members).filter((m) => !this.unread(m.sourceKey)),
    );
    this.batchRows += session.messages.length + session.toolCalls.length + 1;
    const batchBytes = this.takenBytes - this.batchStartBytes;
    if (
      this.batch.length >= BATCH_SESSIONS ||
      this.batchRows >= BATCH_ROWS ||
      batchBytes >= BATCH_PAYLOAD_BYTES
    )
      await this.flush();
  }

  /** Starts loading the batch (after the previous load finished) and returns while it loads. */
  flush(final?: LedgerFinal): Promise<void> {
    const { run } = this;
    const sessions = this.batch;
    const ledger = {
      runId: run.runId,
      memberships: this.memberships,
      discoveredSourceKeys: this.discoveredSourceKeys,
      ...(final ? { final } : {}),
    };
    this.batch = [];
    this.memberships = new Map();
    this.batchRows = 0;
    this.batchStartBytes = this.takenBytes;
    return run.loads.start(async () => {
      // Kept-session diagnostics go where a sequential load would have put them.
      const at = run.diagnostics.length;
      const results = await run.target.loadBatch(sessions, ledger, {
        backupMayReplace: run.options.backupMayReplace ?? false,
      });
      tally(run.counts, results);
      run.diagnostics.splice(at, 0, ...keptSessionDiagnostics(results));
    });
  }
}
