/** Hands a hydration plan on to the readers owning its occurrences' sources, each its part in order. */
import type { SessionOccurrence, SourceAdapter } from './source-adapter.js';

export function planByOwner(
  occurrences: readonly SessionOccurrence[],
  ownerOf: (sourceKey: string) => SourceAdapter | undefined,
): void {
  const parts = new Map<SourceAdapter, SessionOccurrence[]>();
  for (const occurrence of occurrences) {
    const owner = ownerOf(occurrence.sourceKey);
    if (owner?.planHydration === undefined) continue;
    let part = parts.get(owner);
    if (part === undefined) {
      part = [];
      parts.set(owner, part);
    }
    part.push(occurrence);
  }
  for (const [owner, part] of parts) owner.planHydration!(part);
}
