/**
 * The AI code tracking adapter: `<Store root>/ai-tracking/ai-code-tracking.db` → one
 * enrichment-only occurrence per `conversationId` (a Composer ID) → that conversation's summary,
 * AI line attribution and deleted files. An absent or reduced database is normal, never a failure.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { DiagnosticSink, diagnostic } from '../../shared/diagnostic.js';
import { IoError } from '../../shared/errors.js';
import { fingerprintFile, occurrenceRefFor, sourceKeyFor } from '../fs/source-identity.js';
import { SourceLimitExceeded } from '../limits/limit-exceeded.js';
import type {
  Contribution,
  DiscoveredSource,
  ReadContext,
  SessionOccurrence,
  SourceAdapter,
  SourceRoots,
} from '../source-adapter.js';
import { Database } from '../sqlite/sqlite-driver.js';
import { openSqliteSnapshot, type SqliteSnapshot } from '../sqlite/sqlite-snapshot.js';
import { SourceEncodingInvalid } from '../text/strict-utf8.js';
import type { CodeTrackingContribution, CodeTrackingData } from './code-tracking-contribution.js';
import { readTrackedConversation, trackedConversations } from './code-tracking-reader.js';

function unreadable(reason: string, sourceRef: string) {
  return diagnostic(
    'SOURCE_UNREADABLE',
    'The AI code tracking database could not be read; sessions are loaded without its attribution',
    { sourceKind: 'ai-code-tracking', reason, outcome: 'partial' },
    { severity: 'error', sourceRef },
  );
}

const failed = (): CodeTrackingData => ({
  status: 'failed',
  summary: null,
  attribution: [],
  deletedFiles: [],
});

export class CodeTrackingAdapter implements SourceAdapter {
  readonly name = 'ai-code-tracking';
  private readonly snapshots = new Map<string, SqliteSnapshot>();

  async discover(roots: SourceRoots): Promise<DiscoveredSource[]> {
    if (roots.cursorStoreRoot === null) return [];
    const path = join(roots.cursorStoreRoot, 'ai-tracking', 'ai-code-tracking.db');
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat === undefined || !stat.isFile()) return [];
    return [
      {
        sourceKey: sourceKeyFor('ai-code-tracking-db', path),
        kind: 'ai-code-tracking-db',
        carrier: roots.carrier,
        locator: path,
        fingerprint: fingerprintFile(path, ['-wal']),
      },
    ];
  }

  async *catalog(source: DiscoveredSource, ctx: ReadContext): AsyncIterable<SessionOccurrence> {
    let snapshot: SqliteSnapshot;
    let conversations: Map<string, string>;
    try {
      snapshot = await openSqliteSnapshot(source.locator, ctx.temp, 'ai-code-tracking');
    } catch (error) {
      if (!(error instanceof IoError && error.code === 'SOURCE_UNREADABLE')) throw error;
      ctx.diagnostics?.add(unreadable(String(error.details.reason ?? 'open-failed'), source.sourceKey));
      ctx.unreadSources?.set(source.sourceKey, { failsRun: false });
      return;
    }
    this.snapshots.set(source.sourceKey, snapshot);
    try {
      conversations = trackedConversations(snapshot.db, ctx.limits);
    } catch (error) {
      if (!(error instanceof Database.SqliteError || error instanceof SourceLimitExceeded)) throw error;
      ctx.diagnostics?.add(unreadable(error.code, source.sourceKey));
      ctx.unreadSources?.set(source.sourceKey, { failsRun: false });
      return;
    }
    ctx.counters.chargeMetadata(conversations.size);
    for (const [conversationId, evidence] of conversations)
      yield {
        sessionId: conversationId,
        sourceKey: source.sourceKey,
        representation: 'ai-code-tracking',
        carrier: source.carrier,
        occurrenceRef: occurrenceRefFor(source.sourceKey, conversationId),
        workspacePath: null,
        sessionFingerprint: evidence,
        enrichmentOnly: true,
        handle: source.sourceKey,
      };
  }

  async hydrate(occurrence: SessionOccurrence, ctx: ReadContext): Promise<Contribution> {
    const sink = new DiagnosticSink();
    const make = (data: CodeTrackingData): CodeTrackingContribution => ({
      kind: 'ai-code-tracking',
      occurrence,
      data,
      diagnostics: sink.items,
    });
    const snapshot = this.snapshots.get(occurrence.handle as string);
    if (!snapshot) return make(failed());
    try {
      return make(readTrackedConversation(snapshot.db, occurrence.sessionId, ctx));
    } catch (error) {
      if (error instanceof Database.SqliteError) {
        sink.add(unreadable(error.code, occurrence.occurrenceRef));
        return make(failed());
      }
      if (error instanceof SourceLimitExceeded || error instanceof SourceEncodingInvalid) {
        sink.add(
          error.asDiagnostic({ sessionId: occurrence.sessionId, sourceRef: occurrence.occurrenceRef }),
        );
        return make(failed());
      }
      throw error;
    }
  }

  close(): void {
    for (const snapshot of this.snapshots.values()) snapshot.close();
    this.snapshots.clear();
  }
}
