/**
 * The request-id index of one global DB's JSON blobs (cursor-formats §1.4b): a key-range scan of
 * `agentKv:blob:` under the read limits, built only when a session needs a request-id join. It
 * also remembers which JSON blobs a session linked, so the rest are counted as unlinked.
 */
import type Database from 'better-sqlite3';
import { type Diagnostic, diagnostic } from '../../shared/diagnostic.js';
import { SourceLimitExceeded } from '../limits/limit-exceeded.js';
import type { ReadLimits } from '../limits/read-limits.js';
import type { ReadCounters } from '../read-counters.js';
import { HydrationBudget, KeysetPager } from '../sqlite/keyset-pager.js';
import { SourceEncodingInvalid } from '../text/strict-utf8.js';
import { AGENTKV_BLOB_PREFIX, blobIdOfKey, decodeBlob } from './agentkv-blob.js';
import { userRequestId } from './message-request-id.js';

export class AgentKvIndex {
  /** The JSON user blobs opening each request. */
  readonly byRequest = new Map<string, string[]>();
  private readonly jsonBlobs = new Set<string>();
  private readonly linked = new Set<string>();
  private built = false;
  private failure: Diagnostic | null = null;

  constructor(
    private readonly db: Database.Database,
    private readonly limits: ReadLimits,
    private readonly counters: ReadCounters,
  ) {}

  /** Builds the index on first use; a limit breach leaves it partial and is reported once. */
  ensureBuilt(): void {
    if (this.built) return;
    this.built = true;
    const pager = new KeysetPager(this.db, 'cursorDiskKV', this.limits, this.counters);
    const budget = new HydrationBudget(this.limits);
    try {
      for (const page of pager.pages(AGENTKV_BLOB_PREFIX, budget)) {
        for (const meta of page) {
          const blobId = blobIdOfKey(meta.key);
          if (blobId === null || meta.isNull) continue;
          const bytes = pager.fetch(meta, budget);
          if (bytes === null || bytes === 'changed') continue;
          const blob = decodeBlob(blobId, bytes);
          if (blob.kind !== 'json') continue;
          this.jsonBlobs.add(blobId);
          const requestId = blob.hashMatches ? userRequestId(blob.json) : null;
          if (requestId !== null)
            this.byRequest.set(requestId, [...(this.byRequest.get(requestId) ?? []), blobId]);
        }
      }
    } catch (error) {
      if (!(error instanceof SourceLimitExceeded || error instanceof SourceEncodingInvalid)) throw error;
      this.failure = error.asDiagnostic({});
    }
  }

  markLinked(blobIds: Iterable<string>): void {
    for (const id of blobIds) this.linked.add(id);
  }

  /** The index's findings, once: its read failure and the JSON blobs no session read linked. */
  drain(): Diagnostic[] {
    if (!this.built) return [];
    const out: Diagnostic[] = this.failure === null ? [] : [this.failure];
    const unlinked = [...this.jsonBlobs].filter((id) => !this.linked.has(id)).length;
    if (unlinked > 0) {
      out.push(
        diagnostic(
          'AGENTKV_BLOBS_UNLINKED',
          'Some agentKv message blobs belong to no session read in this run; they were not attached',
          { count: unlinked, jsonBlobs: this.jsonBlobs.size },
          { severity: 'info' },
        ),
      );
    }
    this.failure = null;
    this.jsonBlobs.clear();
    return out;
  }
}
