/**
 * The SDK agent store adapter (cursor-formats §3): every `index.db` under the Store root's
 * `projects/*\/sdk-agent-store/` → one occurrence per agent row (session ID = `agent_id`, byte-exact,
 * so it groups with the agent's `agent-transcripts` transcript) → the agent's runs and events.
 */
import { DiagnosticSink, diagnostic } from '../../shared/diagnostic.js';
import { IoError } from '../../shared/errors.js';
import { normalizeWorkspacePath } from '../../shared/normalize-workspace-path.js';
import { fingerprintFile, occurrenceRefFor, sourceKeyFor } from '../fs/source-identity.js';
import { SourceLimitExceeded } from '../limits/limit-exceeded.js';
import type {
  Contribution,
  DiscoveredSource,
  ReadContext,
  SessionOccurrence,
  SourceAdapter,
  SourceRoots,
} from '../source-adapter.js';
import { HydrationBudget } from '../sqlite/keyset-pager.js';
import { Database } from '../sqlite/sqlite-driver.js';
import { hasTable, openSqliteSnapshot, type SqliteSnapshot } from '../sqlite/sqlite-snapshot.js';
import { SourceEncodingInvalid } from '../text/strict-utf8.js';
import type { SdkAgentContribution, SdkAgentData } from './sdk-contribution.js';
import { agentPage, agentStats, readSdkAgent } from './sdk-index-reader.js';
import { inventorySdkStores } from './sdk-inventory.js';

interface SdkHandle {
  sourceKey: string;
  agentId: string;
}

const REQUIRED_TABLES = ['agents', 'runs', 'run_events'] as const;

function unreadableIndex(reason: string, sourceRef: string) {
  return diagnostic(
    'SOURCE_UNREADABLE',
    'An SDK agent store index.db could not be read; its agents keep only their transcripts',
    { sourceKind: 'sdk-store', reason, outcome: 'partial' },
    { severity: 'error', sourceRef },
  );
}

const failed = (): SdkAgentData => ({ status: 'failed', agent: null, runs: [], runColumns: [] });

export class SdkStoreAdapter implements SourceAdapter {
  readonly name = 'sdk-store';
  private readonly snapshots = new Map<string, SqliteSnapshot>();

  async discover(roots: SourceRoots, ctx?: ReadContext): Promise<DiscoveredSource[]> {
    if (roots.cursorStoreRoot === null) return [];
    const { indexes, unlistable } = inventorySdkStores(roots.cursorStoreRoot);
    for (const reason of new Set(unlistable))
      ctx?.diagnostics?.add(
        diagnostic(
          'SOURCE_UNREADABLE',
          'Part of the SDK agent store tree could not be listed; its agents may be missing',
          {
            sourceKind: 'sdk-store',
            part: 'directory',
            reason,
            count: unlistable.filter((r) => r === reason).length,
            outcome: 'partial',
          },
          { severity: 'error' },
        ),
      );
    const sources: DiscoveredSource[] = [];
    for (const index of indexes) {
      const sourceKey = sourceKeyFor('sdk-agent-index', index.path);
      if (index.problem !== null) {
        ctx?.diagnostics?.add(unreadableIndex(index.problem, sourceKey));
        ctx?.unreadSources?.set(sourceKey, { failsRun: false });
        continue;
      }
      if (index.agentStores > 0)
        ctx?.diagnostics?.add(
          diagnostic(
            'SDK_AGENT_STORES_UNREAD',
            'Per-agent SDK store.db files have no documented schema; they were counted, not read',
            { count: index.agentStores },
            { severity: 'info', sourceRef: sourceKey },
          ),
        );
      sources.push({
        sourceKey,
        kind: 'sdk-agent-index',
        carrier: roots.carrier,
        locator: index.path,
        fingerprint: fingerprintFile(index.path, ['-wal']),
      });
    }
    return sources;
  }

  private async open(source: DiscoveredSource, ctx: ReadContext): Promise<SqliteSnapshot | null> {
    const held = this.snapshots.get(source.sourceKey);
    if (held) return held;
    let snapshot: SqliteSnapshot;
    try {
      snapshot = await openSqliteSnapshot(source.locator, ctx.temp, 'sdk-store');
    } catch (error) {
      if (!(error instanceof IoError && error.code === 'SOURCE_UNREADABLE')) throw error;
      this.unread(source.sourceKey, String(error.details.reason ?? 'open-failed'), ctx);
      return null;
    }
    const missing = REQUIRED_TABLES.find((t) => !hasTable(snapshot.db, t));
    if (missing !== undefined) {
      snapshot.close();
      this.unread(source.sourceKey, `no-${missing.replace('_', '-')}-table`, ctx);
      return null;
    }
    this.snapshots.set(source.sourceKey, snapshot);
    return snapshot;
  }

  private unread(sourceKey: string, reason: string, ctx: ReadContext): void {
    ctx.diagnostics?.add(unreadableIndex(reason, sourceKey));
    ctx.unreadSources?.set(sourceKey, { failsRun: false });
  }

  async *catalog(source: DiscoveredSource, ctx: ReadContext): AsyncIterable<SessionOccurrence> {
    const snapshot = await this.open(source, ctx);
    if (snapshot === null) return;
    const budget = new HydrationBudget(ctx.limits);
    let after = 0;
    let invalidIds = 0;
    try {
      for (;;) {
        const page = agentPage(snapshot.db, after, ctx.limits.sqlitePageRows);
        if (page.length === 0) break;
        budget.chargeRows(page.length);
        ctx.counters.chargeMetadata(page.length);
        for (const { cells } of page) {
          const agentId = cells.agent_id;
          if (typeof agentId !== 'string' || agentId === '') {
            invalidIds += 1;
            continue;
          }
          const workspace = cells.workspace_ref;
          yield {
            sessionId: agentId,
            sourceKey: source.sourceKey,
            representation: 'sdk-agent-store',
            carrier: source.carrier,
            occurrenceRef: occurrenceRefFor(source.sourceKey, agentId),
            workspacePath:
              typeof workspace === 'string' && workspace !== '' ? normalizeWorkspacePath(workspace) : null,
            sessionFingerprint: JSON.stringify([
              cells.updated_at,
              cells.status,
              agentStats(snapshot.db, agentId),
            ]),
            handle: { sourceKey: source.sourceKey, agentId } satisfies SdkHandle,
          };
        }
        after = page[page.length - 1]!.rowid;
      }
    } catch (error) {
      if (error instanceof Database.SqliteError) this.unread(source.sourceKey, error.code, ctx);
      else if (error instanceof SourceLimitExceeded || error instanceof SourceEncodingInvalid) {
        ctx.diagnostics?.add(error.asDiagnostic({ sourceRef: source.sourceKey }));
        ctx.unreadSources?.set(source.sourceKey, { failsRun: false });
      } else throw error;
    }
    if (invalidIds > 0)
      ctx.diagnostics?.add(
        diagnostic(
          'SDK_FIELD_INVALID',
          'SDK agent rows whose agent_id is not text were skipped',
          { table: 'agents', field: 'agent_id', reason: 'wrong-type', count: invalidIds },
          { sourceRef: source.sourceKey },
        ),
      );
  }

  async hydrate(occurrence: SessionOccurrence, ctx: ReadContext): Promise<Contribution> {
    const handle = occurrence.handle as SdkHandle;
    const sink = new DiagnosticSink();
    const scope = { sessionId: occurrence.sessionId, sourceRef: occurrence.occurrenceRef };
    const make = (data: SdkAgentData): SdkAgentContribution => ({
      kind: 'sdk-agent-store',
      occurrence,
      data,
      diagnostics: sink.items,
    });
    const snapshot = this.snapshots.get(handle.sourceKey);
    if (!snapshot) {
      sink.add(unreadableIndex('closed', occurrence.occurrenceRef));
      return make(failed());
    }
    try {
      return make(readSdkAgent(snapshot.db, handle.agentId, ctx));
    } catch (error) {
      if (error instanceof Database.SqliteError) {
        sink.add({ ...unreadableIndex(error.code, occurrence.occurrenceRef), sessionId: scope.sessionId });
        return make(failed());
      }
      // A crossed read limit or bad text fails this agent only; its transcript still speaks for it.
      if (error instanceof SourceLimitExceeded || error instanceof SourceEncodingInvalid) {
        sink.add(error.asDiagnostic(scope));
        return make(failed());
      }
      throw error;
    }
  }

  close(): void {
    for (const snapshot of this.snapshots.values()) snapshot.close();
    this.snapshots.clear();
  }
}
