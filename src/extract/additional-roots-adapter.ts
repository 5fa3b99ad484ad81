/**
 * Reads the further data roots with the primary roots' readers (Composer for a `User` dir; Store, SDK
 * store and code tracking for an agent home), so each root's sources keep their own keys and its
 * sessions group with other roots' copies of the same ID as replicas, never duplicates.
 */
import type { Diagnostic } from '../shared/diagnostic.js';
import { CodeTrackingAdapter } from './code-tracking/code-tracking-adapter.js';
import { ComposerAdapter } from './composer/composer-adapter.js';
import { planByOwner } from './plan-by-owner.js';
import { SdkStoreAdapter } from './sdk/sdk-adapter.js';
import type {
  Contribution,
  DiscoveredSource,
  ReadContext,
  SessionOccurrence,
  SourceAdapter,
  SourceRoots,
} from './source-adapter.js';
import { StoreAdapter } from './store/store-adapter.js';

export class AdditionalRootsAdapter implements SourceAdapter {
  readonly name = 'additional-roots';
  private readers: SourceAdapter[] = [];
  private readonly owners = new Map<string, SourceAdapter>();

  async discover(roots: SourceRoots, ctx: ReadContext): Promise<DiscoveredSource[]> {
    this.close();
    const sources: DiscoveredSource[] = [];
    for (const root of roots.additionalRoots ?? []) {
      const store = root.kind === 'agent-home';
      const readers: SourceAdapter[] = store
        ? [new StoreAdapter(), new SdkStoreAdapter(), new CodeTrackingAdapter()]
        : [new ComposerAdapter()];
      const rootOnly: SourceRoots = {
        cursorUserDir: store ? null : root.path,
        cursorStoreRoot: store ? root.path : null,
        inputs: [],
        backups: [],
        carrier: roots.carrier,
      };
      for (const reader of readers) {
        this.readers.push(reader);
        for (const source of await reader.discover(rootOnly, ctx)) {
          // The same file reached by two spellings of a root is one source, read once.
          if (this.owners.has(source.sourceKey)) continue;
          this.owners.set(source.sourceKey, reader);
          sources.push(source);
        }
      }
    }
    return sources;
  }

  catalog(source: DiscoveredSource, ctx: ReadContext): AsyncIterable<SessionOccurrence> {
    return this.owner(source.sourceKey).catalog(source, ctx);
  }

  hydrate(occurrence: SessionOccurrence, ctx: ReadContext): Promise<Contribution> {
    return this.owner(occurrence.sourceKey).hydrate(occurrence, ctx);
  }

  planHydration(occurrences: readonly SessionOccurrence[]): void {
    planByOwner(occurrences, (sourceKey) => this.owners.get(sourceKey));
  }

  drainDiagnostics(): Diagnostic[] {
    return this.readers.flatMap((reader) => reader.drainDiagnostics?.() ?? []);
  }

  planFinal(): void {
    for (const reader of this.readers) reader.planFinal?.();
  }

  endReads(): void {
    for (const reader of this.readers) reader.endReads?.();
  }

  close(): void {
    for (const reader of this.readers) reader.close();
    this.readers = [];
    this.owners.clear();
  }

  private owner(sourceKey: string): SourceAdapter {
    const reader = this.owners.get(sourceKey);
    if (reader === undefined) throw new Error(`no reader owns source ${sourceKey}`);
    return reader;
  }
}
