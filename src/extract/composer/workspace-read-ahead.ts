/**
 * Workspace index entries read ahead: sessions hydrate in ID order, so nearly each one reopened its
 * workspace DB. A visit to a DB also reads its next planned sessions' entries (bounded in bytes),
 * each handed out and counted when its session hydrates, as if read then (a snapshot never changes).
 */
import type Database from 'better-sqlite3';
import type { Diagnostic } from '../../shared/diagnostic.js';
import { ReadCounters } from '../read-counters.js';
import type { ReadContext, SessionOccurrence } from '../source-adapter.js';
import type { ComposerWorkspaceData } from './composer-contribution.js';
import { readWorkspaceEntry, WorkspaceItems } from './workspace-entry-reader.js';
import type { WorkspaceEntryRef } from './workspace-index.js';

export interface WorkspaceHandle {
  kind: 'workspace';
  locator: string;
  entry: WorkspaceEntryRef;
}

export interface WorkspaceEntryRead {
  data: ComposerWorkspaceData;
  diagnostics: Diagnostic[];
}

interface ReadAhead {
  read: WorkspaceEntryRead;
  counters: ReadCounters;
}

/** Payload bytes read ahead and not yet handed out: their parsed form is a few times this in heap. */
export const READ_AHEAD_BYTES = 1024 * 1024;

function scopeOf(occurrence: SessionOccurrence): { sessionId: string; sourceRef: string } {
  return { sessionId: occurrence.sessionId, sourceRef: occurrence.occurrenceRef };
}

export class WorkspaceReadAhead {
  /** Per workspace DB locator: its planned occurrences not yet read, by reference, in hydration order. */
  private planned = new Map<string, Map<string, SessionOccurrence>>();
  private readonly ready = new Map<string, ReadAhead>();
  private readyBytes = 0;

  constructor(private readonly maxBytes = READ_AHEAD_BYTES) {}

  /** Replaces the plan with the workspace occurrences the run will hydrate, in hydration order. */
  plan(occurrences: readonly SessionOccurrence[]): void {
    this.clear();
    for (const occurrence of occurrences) {
      const { locator } = occurrence.handle as WorkspaceHandle;
      let queue = this.planned.get(locator);
      if (queue === undefined) {
        queue = new Map();
        this.planned.set(locator, queue);
      }
      queue.set(occurrence.occurrenceRef, occurrence);
    }
  }

  /** The entry read ahead for `occurrence`, its reads now counted in `ctx`; null when not read ahead. */
  take(occurrence: SessionOccurrence, ctx: ReadContext): WorkspaceEntryRead | null {
    const ahead = this.ready.get(occurrence.occurrenceRef);
    if (ahead === undefined) return null;
    this.ready.delete(occurrence.occurrenceRef);
    this.readyBytes -= ahead.counters.payloadBytes;
    ctx.counters.absorb(ahead.counters);
    return ahead.read;
  }

  /** Reads `occurrence`'s entry from its open DB, then the entries of that DB's next planned sessions. */
  read(db: Database.Database, occurrence: SessionOccurrence, ctx: ReadContext): WorkspaceEntryRead {
    const { locator, entry } = occurrence.handle as WorkspaceHandle;
    const queue = this.planned.get(locator);
    queue?.delete(occurrence.occurrenceRef);
    const items = new WorkspaceItems(db, ctx.limits);
    const read = readWorkspaceEntry(db, entry, ctx.limits, ctx.counters, scopeOf(occurrence), items);
    if (queue !== undefined) this.readAhead(db, locator, queue, ctx, items);
    return read;
  }

  private readAhead(
    db: Database.Database,
    locator: string,
    queue: Map<string, SessionOccurrence>,
    ctx: ReadContext,
    items: WorkspaceItems,
  ): void {
    for (const [ref, next] of queue) {
      if (this.readyBytes >= this.maxBytes) return;
      const counters = new ReadCounters();
      try {
        const { entry } = next.handle as WorkspaceHandle;
        const read = readWorkspaceEntry(db, entry, ctx.limits, counters, scopeOf(next), items);
        this.ready.set(ref, { read, counters });
        this.readyBytes += counters.payloadBytes;
        queue.delete(ref);
      } catch {
        // Its own hydration reads it again and fails (or not) exactly where a run without this would.
        this.planned.delete(locator);
        return;
      }
    }
    if (queue.size === 0) this.planned.delete(locator);
  }

  clear(): void {
    this.planned = new Map();
    this.ready.clear();
    this.readyBytes = 0;
  }
}
