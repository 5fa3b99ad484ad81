/**
 * Diagnostics for Store files that exist but cannot be used: a store.db or transcript that is not a
 * readable regular file in the Store root, an unsupported meta.json, an unlistable directory.
 * Details name the representation and a reason, never a path or content.
 */
import { type Diagnostic, diagnostic } from '../../shared/diagnostic.js';

type Scope = { sessionId: string; sourceRef: string };

export function unreadableStoreSource(
  representation: 'store-db' | 'store-transcript',
  reason: string,
  scope: Scope,
): Diagnostic {
  const what = representation === 'store-db' ? 'A store.db' : 'An agent transcript';
  return diagnostic(
    'SOURCE_UNREADABLE',
    `${what} could not be read; the session keeps only its other representations`,
    { sourceKind: 'store', representation, reason, outcome: 'partial' },
    { severity: 'error', ...scope },
  );
}

export function unsupportedMetaJson(reason: string, scope: Scope): Diagnostic {
  return diagnostic(
    'STORE_META_JSON_INVALID',
    'A Store session meta.json is not supported metadata; its workspace and times are unknown',
    { reason, outcome: 'partial' },
    scope,
  );
}

/**
 * Store directories that exist but could not be listed (and entries whose names are not UTF-8), one
 * diagnostic per reason with a count: the inventory is incomplete, so every Store view of the run is
 * partial.
 */
export function unlistableStoreDirectories(reasons: readonly string[]): Diagnostic[] {
  const counts = new Map<string, number>();
  for (const reason of reasons) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return [...counts].map(([reason, count]) =>
    // A name that is not UTF-8 is never guessed: its entry is left out like an unlistable one.
    reason === 'name-not-utf8'
      ? diagnostic(
          'SOURCE_ENCODING_INVALID',
          'A Store entry name is not valid UTF-8 and was not read; every Store view of this run is partial',
          { sourceKind: 'store', part: 'entry-name', problem: 'invalid-utf8', count, outcome: 'partial' },
          { severity: 'error' },
        )
      : diagnostic(
          'SOURCE_UNREADABLE',
          'Part of the Store tree could not be listed; every Store view of this run is partial',
          { sourceKind: 'store', part: 'directory', reason, count, outcome: 'partial' },
          { severity: 'error' },
        ),
  );
}
