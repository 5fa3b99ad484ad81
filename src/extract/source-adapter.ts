/**
 * The extract stage's contract. A source adapter discovers physical sources (no payload reads),
 * catalogs the session occurrences each one holds (metadata only), and hydrates one occurrence at a
 * time into a typed contribution for the transform stage. Physical locators never leave extract.
 */
import type { Diagnostic, DiagnosticSink } from '../shared/diagnostic.js';
import type { SourceFingerprint, SourceKind } from '../shared/source-fingerprint.js';
import type { PrivateTempDir } from '../shared/temp/private-temp-dir.js';
import type { CheckpointRegistry } from './fs/prefix-checkpoint.js';
import type { ReadLimits } from './limits/read-limits.js';
import type { ReadCounters } from './read-counters.js';
import type { WorkspaceScope } from './workspace-scope.js';

export type Carrier = 'live' | 'custom' | 'backup' | 'capture';

export type Representation =
  | 'composer-global'
  | 'composer-agentkv'
  | 'composer-workspace'
  | 'store-db'
  | 'store-transcript'
  | 'store-metadata'
  | 'sdk-agent-store'
  | 'ai-code-tracking'
  | 'cli-stream'
  | 'cloud-capture'
  | 'markdown-export';

export interface DiscoveredSource {
  /** Opaque, stable key: a hash of kind + physical location. Safe to store and show. */
  sourceKey: string;
  kind: SourceKind;
  carrier: Carrier;
  /** Private physical location; never written to rows, diagnostics or output. */
  locator: string;
  fingerprint: SourceFingerprint;
}

export interface SessionOccurrence {
  sessionId: string;
  sourceKey: string;
  representation: Representation;
  carrier: Carrier;
  /** Opaque, deterministic reference to this occurrence (hash of source key + in-source locator). */
  occurrenceRef: string;
  /** Normalized workspace membership of this occurrence, when known. */
  workspacePath: string | null;
  /** Every normalized workspace this occurrence belongs to (defaults to `workspacePath` alone). */
  workspaceMemberships?: readonly string[];
  /**
   * Why the workspace evidence is damaged (e.g. a truncated `workspace.json`), when it is: the
   * workspace is then unknown, which is not "no workspace" (`workspacePath` null by itself).
   */
  workspaceProblem?: string | null;
  /** Cheap per-session change evidence inside a source (no payload read), when available. */
  sessionFingerprint?: string;
  /**
   * Evidence the cheap one can miss (an in-place `UPDATE` keeps counts and rowids), when the source
   * has it: known for free once hydrated, read from the source only when `compute` asks; null
   * when unknown.
   */
  contentFingerprint?(compute: boolean): string | null;
  /** Prefix of every record locator read from this occurrence: `backup:<entry name>!` for a backup. */
  recordPrefix?: string;
  /**
   * True when the occurrence only annotates a session other sources hold (AI code tracking): a
   * session ID known from such occurrences alone is not a session.
   */
  enrichmentOnly?: boolean;
  /** Adapter-private data needed to hydrate this occurrence (never leaves extract). */
  handle: unknown;
}

export interface ReadContext {
  limits: ReadLimits;
  temp: PrivateTempDir;
  counters: ReadCounters;
  scope: WorkspaceScope | null;
  /** The raw `--workspace` argument, for carriers that must plan their I/O before cataloging (backups). */
  requestedWorkspace?: string | null;
  includeCrossWorkspaceSources: boolean;
  signal: AbortSignal;
  /**
   * Source keys a `--since-last` run reads only the changes of: such a rollback-journal database
   * is read in place under a shared lock rather than copied whole (`sqlite-snapshot.ts`).
   */
  readInPlace?: ReadonlySet<string>;
  /** Source keys whose sessions' content digests a `--since-last` plan compares (changed sources). */
  contentCompared?: ReadonlySet<string>;
  /** Run-level problems found while discovering or cataloging (not tied to one session). */
  diagnostics?: DiagnosticSink;
  /** Prefix checkpoints of append-only sources from the sync ledger, when the target keeps one. */
  checkpoints?: CheckpointRegistry;
  /**
   * Sources a catalog could not read, by source key: no absence is concluded from such a run, and a
   * `failsRun` one fails it once the other sessions are committed, with `failure` when it has one.
   */
  unreadSources?: Map<string, { failsRun: boolean; failure?: Diagnostic }>;
}

export interface SourceRoots {
  /** Cursor `User` directory, or null when not read in this run. */
  cursorUserDir: string | null;
  /** Store root (`~/.cursor`), or null when not read in this run. */
  cursorStoreRoot: string | null;
  inputs: readonly string[];
  backups: readonly string[];
  carrier: Carrier;
  /**
   * Further found roots of default discovery (Insiders, WSL's Windows side, a remote server...): more
   * carriers of the same logical sessions, read beside the two above.
   */
  additionalRoots?: readonly AdditionalRoot[];
}

/** A `User` directory (`ide-user`, `remote-server`) or a Store root (`agent-home`). */
export interface AdditionalRoot {
  kind: 'ide-user' | 'agent-home' | 'remote-server';
  path: string;
}

/** What hydrating one occurrence yields; `kind` selects the transform that consumes it. */
export interface Contribution<K extends string = string, D = unknown> {
  kind: K;
  occurrence: SessionOccurrence;
  data: D;
  diagnostics: Diagnostic[];
}

export interface SourceAdapter {
  readonly name: string;
  discover(roots: SourceRoots, ctx: ReadContext): Promise<DiscoveredSource[]>;
  catalog(source: DiscoveredSource, ctx: ReadContext): AsyncIterable<SessionOccurrence>;
  hydrate(occurrence: SessionOccurrence, ctx: ReadContext): Promise<Contribution>;
  /**
   * The occurrences of this adapter the run will hydrate, in hydration order, told before the first:
   * lets an adapter read several in one visit to a source. Results never depend on it.
   */
  planHydration?(occurrences: readonly SessionOccurrence[]): void;
  /** Diagnostics about sources that yielded no session (skipped, undetected, refused), if any. */
  drainDiagnostics?(): Diagnostic[];
  /** Called once the run's plan is final, before any hydration: stops work kept only for planning. */
  planFinal?(): void;
  /** Called once the run's last session is hydrated: releases what makes a source's writer wait. */
  endReads?(): void;
  /** Releases snapshots and handles held for the run. */
  close(): void;
}
