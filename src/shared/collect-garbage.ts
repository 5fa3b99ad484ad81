/**
 * Runs one full V8 collection when the process exposes `gc` (the launcher starts Node with
 * `--expose-gc`): after a load the heap holds dead rows that no allocation will collect soon, and
 * they would stay resident through the final checkpoint, where a run's RSS peaks.
 */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
