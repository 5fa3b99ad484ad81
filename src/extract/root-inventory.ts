/**
 * `etl doctor`'s read of one data root: the root's own reader discovers and catalogs its sources
 * (metadata only, as a run would), each source is probed for its layout generation and key-range
 * counts, and every problem is kept as a code with a count.
 */
import { EtlError } from '../shared/errors.js';
import type { SourceKind } from '../shared/source-fingerprint.js';
import { CaptureAdapter } from './capture/capture-adapter.js';
import { ComposerAdapter } from './composer/composer-adapter.js';
import { SdkStoreAdapter } from './sdk/sdk-adapter.js';
import type { AdditionalRoot, ReadContext, SourceAdapter } from './source-adapter.js';
import {
  type AgentKvPointers,
  type ComposerHeadersHint,
  type LayoutGeneration,
  probeSource,
} from './source-probe.js';
import { StoreAdapter } from './store/store-adapter.js';

export interface LayoutCount {
  sourceKind: SourceKind;
  generation: LayoutGeneration;
  sources: number;
  sessions: number;
  messages: number | null;
  blobs: number | null;
  unlinkedBlobs: number | null;
  runs: number | null;
  unreadable: number;
}

export interface RootInventory {
  layouts: LayoutCount[];
  /** Session IDs this root holds (replicas of one session in two roots are one ID). */
  sessionIds: Set<string>;
  /** Problem code → count: sources that could not be cataloged or probed, and catalog diagnostics. */
  problems: Map<string, number>;
  composerVersions: { min: number; max: number } | null;
  composerHeaders: ComposerHeadersHint[];
  agentKvPointers: AgentKvPointers[];
  headerFlags: Record<string, string | number | boolean>;
}

/** A data root, or one `--input` folder or file read as captures. */
export type InventoryRoot = AdditionalRoot | { kind: 'input'; path: string };

function readersFor(root: InventoryRoot): SourceAdapter[] {
  if (root.kind === 'agent-home') return [new StoreAdapter(), new SdkStoreAdapter()];
  if (root.kind === 'input') return [new CaptureAdapter()];
  return [new ComposerAdapter()];
}

function problemCode(error: unknown): string {
  return error instanceof EtlError ? error.code : 'SOURCE_UNREADABLE';
}

function count(map: Map<string, number>, key: string, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

function plus(a: number | null, b: number | null): number | null {
  return a === null && b === null ? null : (a ?? 0) + (b ?? 0);
}

async function inventoryWith(
  reader: SourceAdapter,
  root: InventoryRoot,
  ctx: ReadContext,
  inventory: RootInventory,
  layouts: Map<string, LayoutCount>,
): Promise<void> {
  try {
    const sources = await reader.discover(
      {
        cursorUserDir: root.kind === 'ide-user' || root.kind === 'remote-server' ? root.path : null,
        cursorStoreRoot: root.kind === 'agent-home' ? root.path : null,
        inputs: root.kind === 'input' ? [root.path] : [],
        backups: [],
        carrier: 'live',
      },
      ctx,
    );
    for (const source of sources) {
      let probe: ReturnType<typeof probeSource> | null = null;
      let unreadable = 0;
      try {
        probe = probeSource(source);
      } catch (error) {
        unreadable = 1;
        count(inventory.problems, problemCode(error));
      }
      let sessions = 0;
      try {
        for await (const occurrence of reader.catalog(source, ctx)) {
          sessions++;
          inventory.sessionIds.add(occurrence.sessionId);
        }
      } catch (error) {
        if (unreadable === 0) count(inventory.problems, problemCode(error));
        unreadable = 1;
      }
      const generation = probe?.generation ?? 'unreadable';
      const key = `${source.kind}\u0000${generation}`;
      const layout = layouts.get(key) ?? {
        sourceKind: source.kind,
        generation,
        sources: 0,
        sessions: 0,
        messages: null,
        blobs: null,
        unlinkedBlobs: null,
        runs: null,
        unreadable: 0,
      };
      layout.sources++;
      layout.sessions += sessions;
      layout.unreadable += unreadable;
      layout.messages = plus(layout.messages, probe?.messages ?? null);
      layout.blobs = plus(layout.blobs, probe?.blobs ?? null);
      layout.unlinkedBlobs = plus(layout.unlinkedBlobs, probe?.unlinkedBlobs ?? null);
      layout.runs = plus(layout.runs, probe?.runs ?? null);
      layouts.set(key, layout);
      if (probe === null) continue;
      const versions = probe.composerVersions;
      if (versions !== null) {
        const known = inventory.composerVersions;
        inventory.composerVersions =
          known === null
            ? versions
            : { min: Math.min(known.min, versions.min), max: Math.max(known.max, versions.max) };
      }
      if (probe.composerHeaders !== null) inventory.composerHeaders.push(probe.composerHeaders);
      if (probe.agentKvPointers !== null) inventory.agentKvPointers.push(probe.agentKvPointers);
      Object.assign(inventory.headerFlags, probe.headerFlags);
    }
    for (const item of reader.drainDiagnostics?.() ?? []) count(inventory.problems, item.code);
  } finally {
    reader.close();
  }
}

export async function inventoryRoot(root: InventoryRoot, ctx: ReadContext): Promise<RootInventory> {
  const inventory: RootInventory = {
    layouts: [],
    sessionIds: new Set(),
    problems: new Map(),
    composerVersions: null,
    composerHeaders: [],
    agentKvPointers: [],
    headerFlags: {},
  };
  const layouts = new Map<string, LayoutCount>();
  const before = ctx.diagnostics?.items.length ?? 0;
  for (const reader of readersFor(root)) await inventoryWith(reader, root, ctx, inventory, layouts);
  for (const item of ctx.diagnostics?.items.slice(before) ?? []) count(inventory.problems, item.code);
  inventory.layouts = [...layouts.values()];
  return inventory;
}
