/**
 * The Composer source adapter: Cursor `User` tree → global and workspace `state.vscdb` sources →
 * session occurrences → one hydrated contribution at a time. Snapshots stay open for the run.
 */

import { occurrenceRefFor } from '../fs/source-identity.js';
import type {
  Contribution,
  DiscoveredSource,
  ReadContext,
  SessionOccurrence,
  SourceAdapter,
  SourceRoots,
} from '../source-adapter.js';
import { HydrationBudget } from '../sqlite/keyset-pager.js';
import { hasTable, openSqliteSnapshot, type SqliteSnapshot } from '../sqlite/sqlite-snapshot.js';
import type { ComposerGlobalContribution } from './composer-contribution.js';
import { discoverUserDir } from './discover-user-dir.js';
import { scanGlobalSessions } from './global-catalog.js';
import { readGlobalSession } from './global-session-reader.js';

interface GlobalHandle {
  locator: string;
  composerId: string;
}

export class ComposerAdapter implements SourceAdapter {
  readonly name = 'composer';
  private readonly snapshots = new Map<string, SqliteSnapshot>();

  async discover(roots: SourceRoots): Promise<DiscoveredSource[]> {
    return roots.cursorUserDir === null ? [] : discoverUserDir(roots.cursorUserDir, roots.carrier);
  }

  async *catalog(source: DiscoveredSource, ctx: ReadContext): AsyncIterable<SessionOccurrence> {
    if (source.kind !== 'composer-global-db') return;
    const snapshot = await this.snapshot(source.locator, ctx);
    if (!hasTable(snapshot.db, 'cursorDiskKV')) return;
    const budget = new HydrationBudget(ctx.limits);
    for (const entry of scanGlobalSessions(snapshot.db, budget)) {
      const handle: GlobalHandle = { locator: source.locator, composerId: entry.composerId };
      yield {
        sessionId: entry.composerId,
        sourceKey: source.sourceKey,
        representation: 'composer-global',
        carrier: source.carrier,
        occurrenceRef: occurrenceRefFor(source.sourceKey, entry.composerId),
        workspacePath: null,
        sessionFingerprint: entry.sessionFingerprint,
        handle,
      };
    }
  }

  async hydrate(occurrence: SessionOccurrence, ctx: ReadContext): Promise<Contribution> {
    const handle = occurrence.handle as GlobalHandle;
    const snapshot = await this.snapshot(handle.locator, ctx);
    const { data, diagnostics } = readGlobalSession(
      snapshot.db,
      handle.composerId,
      ctx.limits,
      ctx.counters,
      {
        sessionId: occurrence.sessionId,
        sourceRef: occurrence.occurrenceRef,
      },
    );
    const contribution: ComposerGlobalContribution = {
      kind: 'composer-global',
      occurrence,
      data,
      diagnostics,
    };
    return contribution;
  }

  close(): void {
    for (const snapshot of this.snapshots.values()) snapshot.close();
    this.snapshots.clear();
  }

  private async snapshot(locator: string, ctx: ReadContext): Promise<SqliteSnapshot> {
    let snapshot = this.snapshots.get(locator);
    if (!snapshot) {
      snapshot = await openSqliteSnapshot(locator, ctx.temp, 'composer');
      this.snapshots.set(locator, snapshot);
    }
    return snapshot;
  }
}
