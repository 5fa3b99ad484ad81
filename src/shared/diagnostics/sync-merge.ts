/** Codes of a sync run: the lock, replicas, origins, merged archives and resolve workers. */
import { type CatalogueEntry, none } from './catalogue-entry.js';

export const SYNC_MERGE_CODES = {
  AMBIGUOUS_VIEW_KEPT_ARCHIVED: {
    severity: ['warning'],
    exit: null,
    meaning: 'Divergent replicas make the session ambiguous; the archived rows were kept unchanged.',
    remedy: 'None needed; the archive converges once the replicas agree again.',
    details: (z) => z.object({ action: z.literal('keep-ambiguous') }),
  },
  EMPTY_REPLICA_SET: {
    severity: [],
    exit: 'general',
    meaning: 'Internal: replica reconciliation was given no replica.',
    remedy: 'Report the bug with the command line (no data is needed).',
    details: none,
  },
  EMPTY_SESSION_GROUP: {
    severity: [],
    exit: 'general',
    meaning: 'Internal: a session group had no contribution.',
    remedy: 'Report the bug with the command line (no data is needed).',
    details: none,
  },
  ETL_LOCKED: {
    severity: [],
    exit: 'io',
    meaning: 'Another etl run holds the warehouse lock (retryable).',
    remedy: 'Wait for the other run to finish, then retry.',
    details: (z) =>
      z.object({
        holderPid: z.number().nullable(),
        holderStartedAtMs: z.number().nullable().optional(),
        remedy: z.string().optional(),
      }),
  },
  MERGE_INPUT_DIGEST_MISMATCH: {
    severity: ['error'],
    exit: 'integrity',
    meaning:
      "A merge input's session rows do not hash to its stored view_digest; the session was not loaded.",
    remedy: "Run etl verify on the input's machine and re-run its etl run; then merge again.",
    details: (z) =>
      z.object({ input: z.number(), check: z.enum(['digest', 'message-count', 'tool-call-count']) }),
  },
  MERGE_INPUT_IS_TARGET: {
    severity: [],
    exit: 'usage',
    meaning: 'A --from input of etl merge is the --target itself.',
    remedy: 'Name the team warehouse only as --target and each machine warehouse as --from.',
    details: (z) => z.object({ input: z.number() }),
  },
  MERGE_REDACTION_MISMATCH: {
    severity: [],
    exit: 'usage',
    meaning: "A merge input is not redacted under the redacted target's policy; nothing was merged.",
    remedy: "Redact the input with etl redact under the target's policy, or merge into another target.",
    details: (z) => z.object({ input: z.number() }),
  },
  ORIGIN_INVALID: {
    severity: [],
    exit: 'usage',
    meaning:
      'The --origin name (or config key origin) is not 1-64 letters, digits, dot, dash, underscore or @.',
    remedy: 'Choose a short name such as laptop-ana or ci@build-1.',
    details: (z) => z.object({ length: z.number() }),
  },
  ORIGIN_VIEW_KEPT_NEWER: {
    severity: ['info'],
    exit: null,
    meaning: "Another origin's older view was not loaded: the archived view is newer and extends it.",
    remedy: 'None needed: the newer view of the session is archived.',
    details: (z) => z.object({ action: z.literal('keep-complete'), rule: z.literal('newer-extends') }),
  },
  ORIGIN_VIEWS_DIVERGED: {
    severity: ['warning'],
    exit: null,
    meaning:
      'Two origins hold different complete views of the session, neither a newer extension; archived rows kept.',
    remedy: 'Check which machine holds the right history; merge again once one view extends the other.',
    details: (z) => z.object({ action: z.literal('keep-ambiguous'), rule: z.literal('origins-diverge') }),
  },
  PARTIAL_VIEW_KEPT_COMPLETE: {
    severity: ['warning'],
    exit: null,
    meaning: 'A partial view was not loaded over the archived complete session; the archive is unchanged.',
    remedy: 'None needed: partial never overwrites complete.',
    details: (z) => z.object({ action: z.literal('keep-complete') }),
  },
  REPLICA_DIVERGENT: {
    severity: ['warning'],
    exit: null,
    meaning: 'Replicas of one session differ; the session is kept as one unresolved ambiguity.',
    remedy: 'Remove the stale copy of the Cursor data, then run again.',
    details: (z) =>
      z.object({
        representation: z.string().nullable(),
        occurrenceCount: z.number(),
        distinctViews: z.number(),
        occurrenceRefs: z.array(z.string()),
      }),
  },
  RESOLVE_POOL_CLOSED: {
    severity: [],
    exit: 'general',
    meaning: 'Internal: a session was sent to the resolve pool after it closed.',
    remedy: 'Report the bug with the command line (no data is needed).',
    details: none,
  },
  RESOLVE_WORKER_FAILED: {
    severity: [],
    exit: 'general',
    meaning: 'A resolve worker thread stopped unexpectedly; the run failed.',
    remedy: 'Run again; if it repeats, report it with CURSOR_ETL_DEBUG=1 output.',
    details: (z) => z.object({ cause: z.string() }),
  },
  UNKNOWN_CONTRIBUTION: {
    severity: [],
    exit: 'general',
    meaning: 'Internal: no transform is registered for a contribution kind.',
    remedy: 'Report the bug with the command line (no data is needed).',
    details: (z) => z.object({ kind: z.string() }),
  },
} as const satisfies Record<string, CatalogueEntry>;
