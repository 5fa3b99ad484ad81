/**
 * One batch load in flight while the main thread reads the next batch: the DuckDB transaction runs
 * on DuckDB's threads, so the main thread hydrates instead of waiting. Loads start in order and
 * never two at once, so at most two batches are alive (the one loading, the one being read).
 */
export class OverlappedLoad {
  private inFlight: Promise<void> | null = null;

  /** Waits for the previous load (surfacing its error), then starts `load` without waiting for it. */
  async start(load: () => Promise<void>): Promise<void> {
    await this.settle();
    const started = load();
    // Its error surfaces at the next `settle`, never as an unhandled rejection in between.
    started.catch(() => undefined);
    this.inFlight = started;
  }

  /** Waits for the load in flight, if any; rethrows its error. */
  async settle(): Promise<void> {
    const inFlight = this.inFlight;
    this.inFlight = null;
    await inFlight;
  }
}
