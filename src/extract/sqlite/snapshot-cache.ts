/**
 * Snapshots kept for a whole run with at most `maxOpen` connections open, since each open SQLite
 * connection holds lookaside, schema, page cache and statements. The least recently used is
 * released: a copy reopens on its next use, a WAL snapshot stays pinned.
 */
import type { SqliteSnapshot } from './sqlite-snapshot.js';

export class SnapshotCache {
  private readonly all = new Map<string, SqliteSnapshot>();
  /** The open snapshots, least recently used first. */
  private readonly open = new Map<string, SqliteSnapshot>();
  /**
   * Opens in flight: a second caller for the same locator waits for the first. Two opening it at
   * once left one snapshot orphaned with its connection open (at 250 workspaces, ~37 MB of heap).
   */
  private readonly opening = new Map<string, Promise<SqliteSnapshot>>();

  constructor(private readonly maxOpen: number) {}

  async get(locator: string, openSnapshot: () => Promise<SqliteSnapshot>): Promise<SqliteSnapshot> {
    let snapshot = this.all.get(locator);
    if (!snapshot) {
      let pending = this.opening.get(locator);
      if (!pending) {
        pending = openSnapshot().finally(() => this.opening.delete(locator));
        this.opening.set(locator, pending);
      }
      snapshot = await pending;
      this.all.set(locator, snapshot);
    }
    this.open.delete(locator);
    this.open.set(locator, snapshot);
    for (const [oldest, idle] of this.open) {
      if (this.open.size <= this.maxOpen) break;
      idle.release();
      this.open.delete(oldest);
    }
    return snapshot;
  }

  /** Closes and forgets the snapshots `which` selects; a later `get` opens a new one. */
  closeWhere(which: (snapshot: SqliteSnapshot) => boolean): void {
    for (const [locator, snapshot] of this.all) {
      if (!which(snapshot)) continue;
      snapshot.close();
      this.all.delete(locator);
      this.open.delete(locator);
    }
  }

  close(): void {
    for (const snapshot of this.all.values()) snapshot.close();
    this.all.clear();
    this.open.clear();
  }
}
