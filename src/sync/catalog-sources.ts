/**
 * Discovers every adapter's sources and catalogs a chosen subset, with `p-queue` bounding how many
 * sources are read at once. Catalogs read metadata only; the result order is fixed later by grouping.
 */
import PQueue from 'p-queue';
import type {
  DiscoveredSource,
  ReadContext,
  SessionOccurrence,
  SourceAdapter,
  SourceRoots,
} from '../extract/source-adapter.js';
import { isSourceReadError, SessionUnavailable } from '../transform/session-unavailable.js';

export interface FoundSource {
  adapter: SourceAdapter;
  source: DiscoveredSource;
}

export interface CatalogEntry {
  adapter: SourceAdapter;
  occurrence: SessionOccurrence;
}

const CONCURRENT_SOURCE_READS = 2;

/**
 * A source whose catalog failed on its own bytes is unread: its archived sessions are kept, the
 * other sources are read and committed, and the run then ends with its error (exit 4).
 */
function leaveUnread(ctx: ReadContext, sourceKey: string, error: unknown): boolean {
  if (!isSourceReadError(error)) return false;
  const failure = SessionUnavailable.ofError(error, { sourceRef: sourceKey }).diagnostic;
  ctx.diagnostics?.add(failure);
  ctx.unreadSources?.set(sourceKey, { failsRun: true, failure });
  return true;
}

export async function discoverSources(
  adapters: readonly SourceAdapter[],
  roots: SourceRoots,
  ctx: ReadContext,
): Promise<FoundSource[]> {
  const found: FoundSource[] = [];
  for (const adapter of adapters) {
    for (const source of await adapter.discover(roots, ctx)) found.push({ adapter, source });
  }
  return found;
}

/** Catalogs each source; `keep` filters occurrences as they stream so memory holds only kept ones. */
export async function catalogSources(
  sources: readonly FoundSource[],
  ctx: ReadContext,
  keep: (occurrence: SessionOccurrence) => boolean = () => true,
  onSourceDone: () => void = () => undefined,
): Promise<Map<string, CatalogEntry[]>> {
  const bySource = new Map<string, CatalogEntry[]>();
  const queue = new PQueue({ concurrency: CONCURRENT_SOURCE_READS });
  await queue.addAll(
    sources.map(({ adapter, source }) => async () => {
      const entries: CatalogEntry[] = [];
      try {
        for await (const occurrence of adapter.catalog(source, ctx)) {
          if (ctx.signal.aborted) break;
          if (keep(occurrence)) entries.push({ adapter, occurrence });
        }
        bySource.set(source.sourceKey, entries);
      } catch (error) {
        if (!leaveUnread(ctx, source.sourceKey, error)) throw error;
      }
      onSourceDone();
    }),
  );
  return bySource;
}
