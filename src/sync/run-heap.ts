import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/**
 * The young generation (both semi-spaces) is held at this size. V8 shrinks it towards its 1 MB
 * minimum when the allocation rate drops (the main thread waits on DuckDB) and, with growth
 * switched off, it stayed there: a 10,000-session load ran 28,400 scavenges instead of 8,800.
 * V8's 32 MB default held ~70 MB more RSS at 2,000 sessions; 8 MB cost ~30 MB at 10,000.
 */
const NEW_SPACE_BYTES = 4 * 1024 * 1024;

function newSpaceBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

/**
 * Lets the young generation grow back to `NEW_SPACE_BYTES` in one step, and no further. Both flags
 * are set after every collection: starting a worker thread (the resolve pool) resets V8's flags,
 * and the main thread's young generation then grew to 32 MB (+60 MB RSS at 2,000 sessions).
 */
function boundYoungGeneration(): void {
  const size = newSpaceBytes();
  const factor = size === 0 || size >= NEW_SPACE_BYTES ? 1 : Math.ceil(NEW_SPACE_BYTES / size);
  setFlagsFromString(`--heap-growing-percent=50 --semi-space-growth-factor=${factor}`);
}

let observer: PerformanceObserver | null = null;

/**
 * Keeps V8's heap near its live size during a run. A load allocates hundreds of MB of short-lived
 * rows while only 20-40 MB stay live, yet by default the semi-spaces grow to 16 MB each and the old
 * space grows far past the live size between full collections. Both flags are read when the heap
 * resizes, so setting them at run start takes effect (`--max-semi-space-size` is fixed at isolate
 * creation); the young generation's bound is re-applied after every collection. A 20 % old-space
 * growth halved the heap again but cost ~20 % CPU; 50 % costs little.
 */
export function holdHeapNearLiveSize(): void {
  boundYoungGeneration();
  if (observer !== null) return;
  observer = new PerformanceObserver(boundYoungGeneration);
  observer.observe({ entryTypes: ['gc'] });
}
