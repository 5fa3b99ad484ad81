/**
 * The Composer source adapter: Cursor `User` tree → global and workspace `state.vscdb` sources →
 * session occurrences → one hydrated contribution at a time. Snapshots are kept for the run; the
 * global DB's connection stays open, workspace DBs' open connections are bounded.
 */

import { type Diagnostic, diagnostic } from '../../shared/diagnostic.js';
import { AgentKvIndex } from '../agentkv/agentkv-index.js';
import { readAgentKvSession } from '../agentkv/agentkv-session-reader.js';
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
import { SnapshotCache } from '../sqlite/snapshot-cache.js';
import {
  asSourceError,
  hasTable,
  openSqliteSnapshot,
  requireTables,
  type SqliteSnapshot,
  unlessUnreadable,
} from '../sqlite/sqlite-snapshot.js';
import type {
  ComposerGlobalBytesContribution,
  ComposerWorkspaceContribution,
} from './composer-contribution.js';
import { ComposerTree } from './composer-tree.js';
import { discoverUserDir, type SourceKeyDeriver } from './discover-user-dir.js';
import { EarlyContentDigests } from './early-content-digests.js';
import { GlobalAttribution } from './global-attribution.js';
import { type GlobalCatalogEntry, scanGlobalSessions } from './global-catalog.js';
import { type GlobalHandle, GlobalOccurrence } from './global-occurrence.js';
import { readGlobalSession } from './global-session-reader.js';
import { SubagentLinks } from './subagent-links.js';
import { reportUnreadableDatabase } from './unreadable-database.js';
import { type WorkspaceEntryRead, type WorkspaceHandle, WorkspaceReadAhead } from './workspace-read-ahead.js';

/** Workspace DBs read at once (catalog) and then one per hydration: 32 keeps ~5 MB of connections. */
const OPEN_WORKSPACE_SNAPSHOTS = 32;

type Handle = GlobalHandle | WorkspaceHandle;

/** A global DB's catalog scan, begun: its content pass (if any) already has its job. */
interface GlobalScan {
  attribution: GlobalAttribution;
  skipped: { protobufOnly: number };
  entries: Generator<GlobalCatalogEntry>;
}

function globalScan(
  snapshot: SqliteSnapshot,
  ctx: ReadContext,
  pass: EarlyContentDigests | undefined,
): GlobalScan {
  const budget = new HydrationBudget(ctx.limits);
  const attribution = new GlobalAttribution(snapshot.db, ctx.limits, budget);
  const skipped = { protobufOnly: 0 };
  return { attribution, skipped, entries: scanGlobalSessions(snapshot.db, budget, skipped, pass) };
}

export class ComposerAdapter implements SourceAdapter {
  readonly name = 'composer';
  /** Never released: the catalog scan holds the global DB's connection across its yields. */
  private readonly globalSnapshots = new SnapshotCache(Number.POSITIVE_INFINITY);
  private readonly workspaceSnapshots = new SnapshotCache(OPEN_WORKSPACE_SNAPSHOTS);
  private readonly workspaceEntries = new WorkspaceReadAhead();
  /** Per global DB: built only when a session needs a request-id join. */
  private readonly agentKvIndexes = new Map<string, AgentKvIndex>();
  private readonly subagentLinks = new Map<string, SubagentLinks>();
  /** Content passes begun for the plan: the plan may not ask every one for its answer. */
  private readonly passes = new Set<EarlyContentDigests>();
  private sources: DiscoveredSource[] = [];
  /** The read itself is kept, so sources cataloged concurrently share one read of the tree. */
  private tree: Promise<ComposerTree> | null = null;

  /** `keyFor` lets a carrier whose files are temporary copies (a backup) keep stable source keys. */
  constructor(private readonly keyFor?: SourceKeyDeriver) {}

  async discover(roots: SourceRoots, ctx?: ReadContext): Promise<DiscoveredSource[]> {
    this.sources =
      roots.cursorUserDir === null
        ? []
        : discoverUserDir(roots.cursorUserDir, roots.carrier, this.keyFor, ctx?.diagnostics);
    this.tree = null;
    return this.sources;
  }

  async *catalog(source: DiscoveredSource, ctx: ReadContext): AsyncIterable<SessionOccurrence> {
    // Spawned first, the content pass's worker boots while the tree is read and the DB opened.
    const pass =
      source.kind === 'composer-global-db' && ctx.contentCompared?.has(source.sourceKey) === true
        ? EarlyContentDigests.spawn()
        : undefined;
    if (pass !== undefined) this.passes.add(pass);
    try {
      yield* this.catalogSource(source, ctx, pass);
    } finally {
      pass?.cancel();
    }
  }

  private async *catalogSource(
    source: DiscoveredSource,
    ctx: ReadContext,
    pass: EarlyContentDigests | undefined,
  ): AsyncIterable<SessionOccurrence> {
    if (source.kind === 'composer-workspace-db') {
      yield* this.catalogWorkspace(source, await this.workspaceTree(ctx));
      return;
    }
    if (source.kind !== 'composer-global-db') return;
    // An empty file opens as a database without tables: a cut file, not an install without sessions.
    const inPlace = ctx.readInPlace?.has(source.sourceKey) === true;
    const opening = this.globalSnapshot(source.locator, ctx, inPlace).then((s) =>
      requireTables(s, 'composer'),
    );
    const snapshot = await opening.catch((error: unknown) => {
      // With workspace DBs, an unopenable global DB leaves workspace-fallback views (partial) and
      // is reported; with none, nothing safe remains and the source error is fatal.
      if (!this.sources.some((s) => s.kind === 'composer-workspace-db')) throw error;
      unlessUnreadable(error);
      reportUnreadableDatabase(ctx, 'global', source.sourceKey);
      return null;
    });
    if (snapshot === null || !hasTable(snapshot.db, 'cursorDiskKV')) {
      await this.workspaceTree(ctx);
      return;
    }
    // A corrupt page or misshapen table is the typed source error, not INTERNAL_ERROR.
    let scan: GlobalScan;
    try {
      scan = globalScan(snapshot, ctx, pass);
    } catch (error) {
      throw asSourceError(error, 'composer');
    }
    // Read after the scan began, so the content pass runs beside this too.
    const tree = await this.workspaceTree(ctx);
    try {
      yield* this.catalogGlobal(source, scan, tree, ctx);
    } catch (error) {
      throw asSourceError(error, 'composer');
    }
  }

  private *catalogGlobal(
    source: DiscoveredSource,
    { attribution, skipped, entries }: GlobalScan,
    tree: ComposerTree,
    ctx: ReadContext,
  ): Generator<SessionOccurrence> {
    if (attribution.unreadHeaders !== null)
      ctx.diagnostics?.add(attribution.unreadHeaders.asDiagnostic({ sourceRef: source.sourceKey }));
    for (const entry of entries) {
      const { workspacePath, memberships, workspaceProblem } = tree.attribute(
        entry.composerId,
        attribution.documentStamp(entry.composerId),
        attribution.headerStamp(entry.composerId),
      );
      yield new GlobalOccurrence(
        entry.composerId,
        source.sourceKey,
        source.carrier,
        occurrenceRefFor(source.sourceKey, entry.composerId),
        workspacePath,
        memberships,
        workspaceProblem,
        {
          kind: 'global',
          locator: source.locator,
          composerId: entry.composerId,
          excluded: entry.excluded,
          fingerprint: entry.fingerprint,
        },
      );
    }
    if (skipped.protobufOnly > 0)
      ctx.diagnostics?.add(
        diagnostic(
          'AGENTKV_PROTOBUF_UNREAD',
          'Composers whose conversation exists only in protobuf agentKv turns were counted, not loaded',
          { part: 'session', count: skipped.protobufOnly },
          { severity: 'info', sourceRef: source.sourceKey },
        ),
      );
  }

  private *catalogWorkspace(source: DiscoveredSource, tree: ComposerTree): Generator<SessionOccurrence> {
    const info = tree.workspaces.get(source.sourceKey);
    if (!info) return;
    for (const entry of info.index.entries) {
      yield {
        sessionId: entry.composerId,
        sourceKey: source.sourceKey,
        representation: 'composer-workspace',
        carrier: source.carrier,
        occurrenceRef: occurrenceRefFor(source.sourceKey, `${entry.kind}:${entry.composerId}`),
        workspacePath: info.workspacePath,
        workspaceMemberships: info.workspacePath === null ? [] : [info.workspacePath],
        workspaceProblem: info.workspaceProblem,
        handle: { kind: 'workspace', locator: source.locator, entry } satisfies Handle,
      };
    }
  }

  planHydration(occurrences: readonly SessionOccurrence[]): void {
    this.workspaceEntries.plan(
      occurrences.filter((occurrence) => (occurrence.handle as Handle).kind === 'workspace'),
    );
  }

  async hydrate(occurrence: SessionOccurrence, ctx: ReadContext): Promise<Contribution> {
    const handle = occurrence.handle as Handle;
    const ahead = handle.kind === 'workspace' ? this.workspaceEntries.take(occurrence, ctx) : null;
    if (ahead !== null) return this.workspaceContribution(occurrence, ahead);
    const snapshot =
      handle.kind === 'global'
        ? await this.globalSnapshot(handle.locator, ctx)
        : await this.workspaceSnapshot(handle.locator, ctx);
    try {
      return this.read(handle, snapshot, occurrence, ctx);
    } catch (error) {
      throw asSourceError(error, 'composer');
    }
  }

  private read(
    handle: Handle,
    snapshot: SqliteSnapshot,
    occurrence: SessionOccurrence,
    ctx: ReadContext,
  ): Contribution {
    if (handle.kind === 'workspace')
      return this.workspaceContribution(occurrence, this.workspaceEntries.read(snapshot.db, occurrence, ctx));
    const scope = { sessionId: occurrence.sessionId, sourceRef: occurrence.occurrenceRef };
    const { stats, content, read } = readGlobalSession(
      snapshot.db,
      handle.composerId,
      handle.excluded,
      ctx.limits,
      ctx.counters,
      scope,
    );
    // A read cut short (a limit) leaves the stats to the key index: asked now, while the snapshot is open.
    if (stats !== null) handle.fingerprint.supply(stats, content);
    else handle.fingerprint.get();
    const contribution: ComposerGlobalBytesContribution = {
      kind: 'composer-global-bytes',
      occurrence,
      data: {
        ...read,
        agentKv: readAgentKvSession(
          snapshot.db,
          read,
          this.agentKvIndex(handle.locator, snapshot, ctx),
          ctx.limits,
          ctx.counters,
          scope,
        ),
        subagent: this.subagentLinksOf(handle.locator, snapshot, ctx).of(handle.composerId),
      },
      diagnostics: [],
    };
    return contribution;
  }

  private workspaceContribution(occurrence: SessionOccurrence, read: WorkspaceEntryRead): Contribution {
    const contribution: ComposerWorkspaceContribution = { kind: 'composer-workspace', occurrence, ...read };
    return contribution;
  }

  private agentKvIndex(locator: string, snapshot: SqliteSnapshot, ctx: ReadContext): AgentKvIndex {
    let index = this.agentKvIndexes.get(locator);
    if (index === undefined) {
      index = new AgentKvIndex(snapshot.db, ctx.limits, ctx.counters);
      this.agentKvIndexes.set(locator, index);
    }
    return index;
  }

  private subagentLinksOf(locator: string, snapshot: SqliteSnapshot, ctx: ReadContext): SubagentLinks {
    let links = this.subagentLinks.get(locator);
    if (links === undefined) {
      links = new SubagentLinks(snapshot.db, ctx.limits);
      this.subagentLinks.set(locator, links);
    }
    return links;
  }

  drainDiagnostics(): Diagnostic[] {
    return [...this.agentKvIndexes.values()].flatMap((index) => index.drain());
  }

  /** A content pass the plan did not take would otherwise run on beside the hydration. */
  planFinal(): void {
    this.releasePasses();
  }

  /** A global DB read in place holds a shared lock its writer's commits wait for: released here. */
  endReads(): void {
    this.globalSnapshots.closeWhere((snapshot) => snapshot.method === 'shared-lock-read');
  }

  close(): void {
    // A run whose plan failed never reached `planFinal`.
    this.releasePasses();
    this.workspaceEntries.clear();
    this.globalSnapshots.close();
    this.workspaceSnapshots.close();
  }

  private releasePasses(): void {
    for (const pass of this.passes) pass.release();
    this.passes.clear();
  }

  private workspaceTree(ctx: ReadContext): Promise<ComposerTree> {
    this.tree ??= ComposerTree.read(this.sources, ctx, (locator) => this.workspaceSnapshot(locator, ctx));
    return this.tree;
  }

  /** The catalog opens it first, and decides whether it is read in place. */
  private globalSnapshot(locator: string, ctx: ReadContext, inPlace = false): Promise<SqliteSnapshot> {
    return this.globalSnapshots.get(locator, () =>
      openSqliteSnapshot(locator, ctx.temp, 'composer', undefined, inPlace),
    );
  }

  private workspaceSnapshot(locator: string, ctx: ReadContext): Promise<SqliteSnapshot> {
    return this.workspaceSnapshots.get(locator, () => openSqliteSnapshot(locator, ctx.temp, 'composer'));
  }
}
