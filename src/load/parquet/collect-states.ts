/**
 * Garbage collection of old states, under the writer lock. The published state, the two before it
 * and any superseded less than ten minutes ago stay, so a reader that just resolved `CURRENT` keeps
 * a complete state. Unpublished residue of a dead writer is removed.
 */
import { readdirSync, rmSync } from 'node:fs';
import type { DatasetLayout } from './dataset-layout.js';
import { type DatasetManifest, readManifest } from './dataset-manifest.js';

export const RETAINED_PREVIOUS_STATES = 2;
export const SUPERSEDED_GRACE_MS = 10 * 60 * 1000;

/** State ids to keep, walking the publication chain back from the current manifest. */
function retained(layout: DatasetLayout, current: DatasetManifest, nowMs: number): Set<string> {
  const keep = new Set([current.stateId]);
  let successor = current;
  let depth = 0;
  while (successor.previousState !== null) {
    const id = successor.previousState;
    depth += 1;
    const recent = nowMs - successor.publishedAtMs < SUPERSEDED_GRACE_MS;
    if (depth > RETAINED_PREVIOUS_STATES && !recent) break;
    keep.add(id);
    try {
      successor = readManifest(layout, id);
    } catch {
      break;
    }
  }
  return keep;
}

export function collectStates(layout: DatasetLayout, current: DatasetManifest, nowMs: number): string[] {
  const keep = retained(layout, current, nowMs);
  const removed: string[] = [];
  for (const entry of readdirSync(layout.statesDir)) {
    if (keep.has(entry)) continue;
    rmSync(layout.stateDir(entry), { recursive: true, force: true });
    removed.push(entry);
  }
  return removed;
}
