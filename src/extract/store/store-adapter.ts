/**
 * The Store source adapter: `~/.cursor` (or `--cursor-store-root`) → session directories and
 * transcripts → one occurrence per representation → one hydrated contribution at a time. The
 * pipeline's scope plan decides which occurrences are hydrated; off-scope ones are never opened.
 */

import { dirname } from 'node:path';
import { DiagnosticSink } from '../../shared/diagnostic.js';
import { IoError } from '../../shared/errors.js';
import { canonicalHash } from '../../shared/json/canonical-json.js';
import { nextTurn } from '../../shared/next-turn.js';
import { normalizeWorkspacePath } from '../../shared/normalize-workspace-path.js';
import type { SourceKind } from '../../shared/source-fingerprint.js';
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
import { Database } from '../sqlite/sqlite-driver.js';
import { openSqliteSnapshot, type SqliteSnapshot } from '../sqlite/sqlite-snapshot.js';
import { SourceEncodingInvalid } from '../text/strict-utf8.js';
import type { MetaJsonFacts, StoreContribution, StoreSessionFacts } from './store-contribution.js';
import { failedDb, readStoreDb } from './store-db-reader.js';
import {
  cwdSlugs,
  dbExpectation,
  inventoryStoreRoot,
  type SessionDirEntry,
  type TranscriptEntry,
  transcriptWorkspace,
} from './store-inventory.js';
import {
  unlistableStoreDirectories,
  unreadableStoreSource,
  unsupportedMetaJson,
} from './store-source-diagnostics.js';
import { readTranscript } from './transcript-reader.js';

type StoreHandle =
  | { kind: 'dir'; entry: SessionDirEntry; facts: StoreSessionFacts }
  | { kind: 'transcript'; entry: TranscriptEntry; facts: StoreSessionFacts };

interface PlannedSource {
  source: DiscoveredSource;
  occurrence: Omit<SessionOccurrence, 'sourceKey' | 'carrier' | 'occurrenceRef'>;
}

/** Sources planned between two yields of discovery (about 3 ms of fingerprinting). */
const YIELD_EVERY = 32;

const TRANSCRIPT_KINDS: Record<TranscriptEntry['layout'], SourceKind> = {
  nested: 'store-transcript',
  flat: 'store-transcript',
  subagent: 'store-subagent-transcript',
  'legacy-txt': 'store-legacy-transcript',
};

/** Metadata of several replicas: later updatedAt, then later createdAt, then smaller path (§2.7). */
function preferredMeta(dirs: readonly SessionDirEntry[]): MetaJsonFacts | null {
  const metas = dirs
    .filter((d) => d.meta !== null)
    .sort(
      (a, b) =>
        (b.meta!.updatedAtMs ?? 0) - (a.meta!.updatedAtMs ?? 0) ||
        (b.meta!.createdAtMs ?? 0) - (a.meta!.createdAtMs ?? 0) ||
        (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0),
    );
  return metas[0]?.meta ?? null;
}

/**
 * Store cwds are plain paths; they compare with other workspaces only once normalized. Many
 * sessions share a cwd, so each is normalized once per discovery.
 */
function workspaceNormalizer(): (cwd: string | null) => string | null {
  const normalized = new Map<string, string | null>();
  return (cwd) => {
    if (cwd === null) return null;
    let path = normalized.get(cwd);
    if (path === undefined) {
      path = normalizeWorkspacePath(cwd);
      normalized.set(cwd, path);
    }
    return path;
  };
}

export class StoreAdapter implements SourceAdapter {
  readonly name = 'store';
  private readonly planned = new Map<string, PlannedSource>();

  async discover(roots: SourceRoots, ctx?: ReadContext): Promise<DiscoveredSource[]> {
    if (roots.cursorStoreRoot === null) return [];
    const inventory = inventoryStoreRoot(roots.cursorStoreRoot);
    const workspaceOf = workspaceNormalizer();
    const inventoryComplete = inventory.unlistable.length === 0;
    for (const item of unlistableStoreDirectories(inventory.unlistable)) ctx?.diagnostics?.add(item);
    const dirsById = new Map<string, SessionDirEntry[]>();
    for (const dir of inventory.sessionDirs)
      dirsById.set(dir.sessionId, [...(dirsById.get(dir.sessionId) ?? []), dir]);
    const transcriptIds = new Set(inventory.transcripts.map((t) => t.sessionId));
    const cwds = cwdSlugs(
      new Set(
        inventory.sessionDirs.map((d) => d.meta?.cwd).filter((c): c is string => typeof c === 'string'),
      ),
    );
    const metaUnsupported = inventory.sessionDirs.some((d) => d.meta !== null && d.meta.problem !== null);
    const factsFor = (id: string, parent: string | null = null): StoreSessionFacts => {
      const dirs = dirsById.get(id) ?? [];
      return {
        meta: preferredMeta(dirs),
        dbExpectation: dbExpectation(dirs),
        parentSessionId: parent,
        workspaceUncertain: false,
        inventoryComplete,
      };
    };
    const sources: DiscoveredSource[] = [];
    const plan = (
      kind: SourceKind,
      locator: string,
      fingerprintPath: string,
      occurrence: PlannedSource['occurrence'],
    ) => {
      const handle = occurrence.handle as StoreHandle;
      const source: DiscoveredSource = {
        sourceKey: sourceKeyFor(kind, locator),
        kind,
        carrier: roots.carrier,
        locator,
        fingerprint: {
          ...fingerprintFile(fingerprintPath, kind === 'store-session-dir' ? ['-wal'] : []),
          // meta.json files (its own, its replicas', every cwd for transcript workspaces) shape the view.
          metadataDigest: canonicalHash({
            workspacePath: occurrence.workspacePath,
            facts: handle.facts,
            meta: handle.kind === 'dir' ? handle.entry.meta : null,
          }),
        },
      };
      this.planned.set(source.sourceKey, { source, occurrence });
      sources.push(source);
    };
    // The warehouse opens on DuckDB's threads meanwhile; each of its steps goes on only when this
    // thread yields, so a large Store root yields every few sources.
    const yielding = async (index: number): Promise<void> => {
      if (index % YIELD_EVERY === 0) await nextTurn();
    };
    for (const [index, dir] of inventory.sessionDirs.entries()) {
      await yielding(index);
      const facts = factsFor(dir.sessionId);
      // An explicit "no conversation" with no DB and no transcript is not a session at all.
      if (dir.dbPath === null && dir.meta?.hasConversation === false && !transcriptIds.has(dir.sessionId))
        continue;
      const handle: StoreHandle = { kind: 'dir', entry: dir, facts };
      // The file that holds the session, if it can be stat'ed; else its directory stands in for it.
      const held = dir.dbPath ?? (dir.meta?.problem === null ? `${dir.dir}/meta.json` : null);
      const fingerprintPath = dir.dbProblem === null && held !== null ? held : dir.dir;
      plan('store-session-dir', dir.dir, fingerprintPath, {
        sessionId: dir.sessionId,
        representation: dir.dbPath === null ? 'store-metadata' : 'store-db',
        workspacePath: workspaceOf(dir.meta?.cwd ?? null),
        handle,
      });
    }
    for (const [index, transcript] of inventory.transcripts.entries()) {
      await yielding(index);
      const shared = factsFor(transcript.sessionId, transcript.parentSessionId);
      // Where the transcript lives decides its workspace; its UUID's meta cwd only fills a gap.
      const cwd = transcriptWorkspace(transcript.projectDir, cwds) ?? shared.meta?.cwd ?? null;
      const facts = { ...shared, workspaceUncertain: cwd === null && metaUnsupported };
      const handle: StoreHandle = { kind: 'transcript', entry: transcript, facts };
      // A loop or dangling link cannot be stat'ed: its directory's fingerprint stands in for it.
      const fingerprintPath = transcript.problem === null ? transcript.path : dirname(transcript.path);
      plan(TRANSCRIPT_KINDS[transcript.layout], transcript.path, fingerprintPath, {
        sessionId: transcript.sessionId,
        representation: 'store-transcript',
        workspacePath: workspaceOf(cwd),
        handle,
      });
    }
    return sources;
  }

  async *catalog(source: DiscoveredSource): AsyncIterable<SessionOccurrence> {
    const planned = this.planned.get(source.sourceKey);
    if (!planned) return;
    yield {
      ...planned.occurrence,
      sourceKey: source.sourceKey,
      carrier: source.carrier,
      occurrenceRef: occurrenceRefFor(source.sourceKey, planned.occurrence.sessionId),
    };
  }

  async hydrate(occurrence: SessionOccurrence, ctx: ReadContext): Promise<Contribution> {
    const handle = occurrence.handle as StoreHandle;
    const sink = new DiagnosticSink();
    const scope = { sessionId: occurrence.sessionId, sourceRef: occurrence.occurrenceRef };
    const env = { limits: ctx.limits, counters: ctx.counters, sink, scope };
    const make = (contribution: Omit<StoreContribution, 'occurrence' | 'diagnostics'>): Contribution =>
      ({ ...contribution, occurrence, diagnostics: sink.items }) as StoreContribution;
    if (handle.kind === 'transcript') {
      const format = handle.entry.layout === 'legacy-txt' ? 'txt' : 'jsonl';
      return make({
        kind: 'store-transcript',
        data: await readTranscript(handle.entry, format, handle.facts, env),
      });
    }
    const metaProblem = handle.entry.meta?.problem ?? null;
    if (metaProblem !== null) sink.add(unsupportedMetaJson(metaProblem, scope));
    if (handle.entry.dbPath === null) return make({ kind: 'store-metadata', data: { facts: handle.facts } });
    // Reported, never silent: the session keeps only what its other representations hold.
    const unreadable = (reason: unknown) => {
      sink.add(unreadableStoreSource('store-db', typeof reason === 'string' ? reason : 'open-failed', scope));
      return make({ kind: 'store-db', data: failedDb(handle.facts, 'unreadable') });
    };
    if (handle.entry.dbProblem !== null) return unreadable(handle.entry.dbProblem);
    let snapshot: SqliteSnapshot;
    try {
      // The tree is read through SQLite only: `rawFileOf` is never asked of it.
      snapshot = await openSqliteSnapshot(handle.entry.dbPath, ctx.temp, 'store', undefined, false, false);
    } catch (error) {
      // A corrupt or vanished file is a degraded source; anything else (capability, bugs) is fatal.
      if (error instanceof IoError && error.code === 'SOURCE_UNREADABLE')
        return unreadable(error.details.reason);
      throw error;
    }
    try {
      const data = readStoreDb(snapshot.db, handle.facts, env);
      return 'leafBytes' in data ? make({ kind: 'store-db-bytes', data }) : make({ kind: 'store-db', data });
    } catch (error) {
      if (error instanceof Database.SqliteError) return unreadable(error.code);
      // A crossed read limit or bad text fails this DB only; the selection degrades to what remains.
      if (error instanceof SourceLimitExceeded || error instanceof SourceEncodingInvalid) {
        sink.add(error.asDiagnostic(scope));
        return make({ kind: 'store-db', data: failedDb(handle.facts, error.code) });
      }
      throw error;
    } finally {
      snapshot.close();
    }
  }

  close(): void {
    this.planned.clear();
  }
}
