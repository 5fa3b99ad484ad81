/**
 * Resolves on the event loop's next check phase: callbacks of I/O finished meanwhile (a DuckDB
 * statement completing on its own thread) run first. A long synchronous loop awaits it now and then.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
