/**
 * `etl merge`: other machines' warehouses as sources. Each input is one ledger source whose
 * fingerprint is its last committed run ID plus every session digest; a changed input loads only
 * the sessions whose digest its memberships do not already record, through the same replace rules.
 */
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { openMergeInput } from '../load/merge-input.js';
import type { TargetLocation } from '../load/open-target.js';
import type { LedgerFinal, Membership, SourceAdvance } from '../load/sync-ledger.js';
import type { RunCounts, StoredSession, WarehouseTarget } from '../load/target.js';
import { type Diagnostic, diagnostic } from '../shared/diagnostic.js';
import { UsageError } from '../shared/errors.js';
import { canonicalHash, sha256Hex } from '../shared/json/canonical-json.js';
import { samePolicy } from '../shared/redaction-policy.js';
import type { NormalizedSession } from '../transform/normalized-session.js';
import { keptSessionDiagnostics } from './load-diagnostics.js';
import { emptyCounts, tally } from './run-counts.js';

export interface MergeOptions {
  inputs: readonly TargetLocation[];
  /** The origin the merge run records in `etl_runs` (sessions keep the origin their input stored). */
  origin: string | null;
  signal?: AbortSignal;
}

export interface MergeSummary {
  runId: string;
  status: 'committed' | 'interrupted';
  mode: 'merge';
  durationMs: number;
  inputs: number;
  inputsSkippedUnchanged: number;
  sessionsRead: number;
  sessionsRefused: number;
  counts: RunCounts;
  diagnostics: Diagnostic[];
}

const BATCH_SESSIONS = 200;
const SOURCE_KIND = 'merge-input' as const;

/** An input's ledger key: a hash of its kind and resolved location, never the path itself. */
export function mergeSourceKey(input: TargetLocation): string {
  return sha256Hex(`merge-input\u0000${input.kind}\u0000${input.path}`);
}

function asNormalized(stored: StoredSession, sourceKey: string): NormalizedSession {
  return { ...stored, diagnostics: [], sourceKeys: [sourceKey] };
}

function membership(sourceKey: string, sessionId: string, digest: string): Membership {
  return {
    sessionId,
    sourceKey,
    occurrenceRef: sha256Hex(`${sourceKey}\u0000${sessionId}`),
    sessionFingerprint: null,
    contentFingerprint: digest,
  };
}

function refused(
  input: number,
  sessionId: string,
  check: 'digest' | 'message-count' | 'tool-call-count',
): Diagnostic {
  return diagnostic(
    'MERGE_INPUT_DIGEST_MISMATCH',
    "A merge input's session rows do not match its stored digest; the session was not loaded",
    { input, check },
    { sessionId, severity: 'error' },
  );
}

export async function runMerge(options: MergeOptions, target: WarehouseTarget): Promise<MergeSummary> {
  const startedAtMs = Date.now();
  const runId = `${new Date(startedAtMs).toISOString().replace(/[-:.]/g, '')}-${randomUUID().slice(0, 8)}`;
  const keys = options.inputs.map(mergeSourceKey);
  const counts = emptyCounts();
  const diagnostics: Diagnostic[] = [...(target.openDiagnostics ?? [])];
  const summary: MergeSummary = {
    runId,
    status: 'committed',
    mode: 'merge',
    durationMs: 0,
    inputs: options.inputs.length,
    inputsSkippedUnchanged: 0,
    sessionsRead: 0,
    sessionsRefused: 0,
    counts,
    diagnostics,
  };
  const optionsDigest = canonicalHash({ merge: [...keys].sort() });
  await target.beginRun({ runId, startedAtMs, mode: 'merge', optionsDigest, origin: options.origin });
  const advances: SourceAdvance[] = [];
  const fullyRead = new Map<string, Set<string>>();
  try {
    const stored = (await target.ledger?.readSources()) ?? new Map();
    for (const [index, location] of options.inputs.entries()) {
      if (options.signal?.aborted) {
        summary.status = 'interrupted';
        break;
      }
      const sourceKey = keys[index]!;
      counts.sourcesSeen++;
      const input = await openMergeInput(location);
      try {
        if (target.redactionPolicy?.enabled === true && !samePolicy(target.redactionPolicy, input.redaction))
          throw new UsageError(
            'MERGE_REDACTION_MISMATCH',
            "A merge input is not redacted under the target's policy; nothing was merged",
            { input: index },
          );
        const fingerprintDigest = input.fingerprint;
        const before = stored.get(sourceKey);
        const unchanged = before?.present === true && before.fingerprintDigest === fingerprintDigest;
        const stat = statSync(location.path);
        const advance: SourceAdvance = {
          sourceKey,
          kind: SOURCE_KIND,
          fingerprint: {
            dev: stat.dev,
            ino: stat.ino,
            size: stat.size,
            mtimeMs: Math.trunc(stat.mtimeMs),
            contentHash: fingerprintDigest,
          },
          fingerprintDigest,
          changed: !unchanged,
          checkpoint: null,
        };
        if (unchanged) {
          counts.sourcesSkippedUnchanged++;
          summary.inputsSkippedUnchanged++;
          advances.push(advance);
          continue;
        }
        const known = new Map(
          ((await target.ledger?.readMemberships(sourceKey)) ?? []).map((m) => [
            m.sessionId,
            m.contentFingerprint,
          ]),
        );
        const toRead = new Set(
          [...input.digests].filter(([id, digest]) => known.get(id) !== digest).map(([id]) => id),
        );
        let batch: NormalizedSession[] = [];
        let memberships = new Map<string, Membership[]>();
        let clean = true;
        const flush = async (): Promise<void> => {
          if (batch.length === 0) return;
          const results = await target.loadBatch(batch, {
            runId,
            memberships,
            discoveredSourceKeys: new Set([sourceKey]),
          });
          tally(counts, results);
          diagnostics.push(...keptSessionDiagnostics(results));
          batch = [];
          memberships = new Map();
        };
        for await (const { stored: session, problems } of input.sessions(toRead)) {
          summary.sessionsRead++;
          const id = session.session.session_id;
          if (problems.length > 0) {
            summary.sessionsRefused++;
            clean = false;
            diagnostics.push(refused(index, id, problems[0]!));
            continue;
          }
          batch.push(asNormalized(session, sourceKey));
          // The digest as the input stores it: what the next merge compares its digests with.
          memberships.set(id, [membership(sourceKey, id, input.digests.get(id)!)]);
          if (batch.length >= BATCH_SESSIONS) await flush();
          if (options.signal?.aborted) break;
        }
        await flush();
        if (options.signal?.aborted) {
          summary.status = 'interrupted';
          break;
        }
        // A refused session keeps the input unadvanced, so the next merge checks it again.
        if (clean) {
          advances.push(advance);
          fullyRead.set(sourceKey, new Set(input.digests.keys()));
        }
      } finally {
        input.close();
      }
    }
  } catch (error) {
    // A fatal input (refused, unreadable, newer) ends the merge as failed; committed batches stay.
    await target.finishRun(runId, 'failed', Date.now(), counts, 0).catch(() => undefined);
    throw error;
  }
  if (summary.status === 'committed') {
    const final: LedgerFinal = {
      rootsDigest: optionsDigest,
      optionsDigest,
      sources: advances,
      fullyRead,
      concludeVanished: false,
      unreadKinds: new Set(),
      unreadSources: new Set(),
      outcome: { markedAbsent: 0 },
    };
    await target.loadBatch([], { runId, memberships: new Map(), discoveredSourceKeys: new Set(keys), final });
    counts.sessionsMarkedAbsent = final.outcome.markedAbsent;
  }
  counts.diagnostics = diagnostics.length;
  await target.recordDiagnostics(runId, diagnostics);
  await target.finishRun(runId, summary.status, Date.now(), counts, 0);
  diagnostics.push(...(target.publishDiagnostics ?? []));
  counts.diagnostics = diagnostics.length;
  summary.durationMs = Date.now() - startedAtMs;
  return summary;
}
