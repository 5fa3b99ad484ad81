/**
 * Every diagnostic and error code: severities, exit category, the shape of its safe `details`,
 * meaning and remedy. A new code is one entry here, then `npm run schemas:generate`. Details
 * schemas are built only by the doc generator, so a run never loads zod.
 */
import type { z as Zod } from 'zod';
import type { DiagnosticSeverity } from './diagnostic.js';
import type { EXIT } from './errors.js';
import { TIME_REJECTIONS } from './time/read-instant.js';

type ZodApi = typeof Zod;

export interface CatalogueEntry {
  /** The severities a diagnostic of this code is recorded with; empty when it is only thrown. */
  severity: readonly DiagnosticSeverity[];
  /** The exit category when it ends a run; null when it is only ever a diagnostic. */
  exit: keyof typeof EXIT | null;
  meaning: string;
  remedy: string;
  details: (z: ZodApi) => Zod.ZodObject;
}

const none = (z: ZodApi) => z.object({});

/** Partial or fatal: whether the rest of the session (or run) survived the problem. */
const outcome = (z: ZodApi) => z.enum(['partial', 'fatal']).optional();

/** A capture source refused as a whole keeps its error's details plus these. */
const refusal = (z: ZodApi) => ({
  outcome: outcome(z),
  failClosed: z.literal(true).optional(),
  /** How many capture sources were refused, when none could be loaded. */
  refusedSources: z.number().optional(),
});

const limitExceeded = (z: ZodApi) =>
  z.object({
    policyVersion: z.string(),
    sourceKind: z.enum(['jsonl', 'sqlite', 'zip']),
    bound: z.string(),
    limit: z.number(),
    observedAtLeast: z.number(),
    unit: z.enum(['bytes', 'records', 'rows', 'ratio', 'files']),
    outcome: z.enum(['partial', 'fatal']),
    retryableWithOverride: z.literal(true),
    remedy: z.string(),
    failClosed: z.literal(true).optional(),
    refusedSources: z.number().optional(),
  });

const warehouseVersions = (z: ZodApi) =>
  z.object({ warehouseVersion: z.number(), supportedVersion: z.number(), remedy: z.string() });

export const CATALOGUE = {
  AGENTKV_BLOB_HASH_MISMATCH: {
    severity: ['warning'],
    exit: null,
    meaning:
      'agentKv blobs of the session do not hash to the SHA-256 their key names; their facts are not trusted.',
    remedy: 'None; the rest of the session is loaded. A changed or damaged global DB is the usual cause.',
    details: (z) => z.object({ count: z.number() }),
  },
  AGENTKV_BLOBS_POSSIBLY_ENCRYPTED: {
    severity: ['warning'],
    exit: null,
    meaning:
      'agentKv blobs of the session are neither JSON, protobuf nor text (possibly encrypted); they are counted, never decrypted.',
    remedy: 'None; the session is loaded from what is readable.',
    details: (z) => z.object({ count: z.number() }),
  },
  AGENTKV_BLOBS_UNLINKED: {
    severity: ['info'],
    exit: null,
    meaning:
      'agentKv message blobs that no session read in this run links to; counted, never attached by guess.',
    remedy: 'None; background runs and deleted chats leave such blobs behind.',
    details: (z) => z.object({ count: z.number(), jsonBlobs: z.number() }),
  },
  AGENTKV_LINK_UNREADABLE: {
    severity: ['warning'],
    exit: null,
    meaning:
      'Links to agentKv blobs could not be followed: an unreadable conversationState, or named blobs missing or changed.',
    remedy: 'None; the session is loaded from its bubbles and the blobs that were read.',
    details: (z) =>
      z.object({
        reason: z.enum(['state-unreadable', 'blob-missing', 'blob-changed']),
        count: z.number(),
      }),
  },
  AGENTKV_PROTOBUF_UNREAD: {
    severity: ['info'],
    exit: null,
    meaning:
      'agentKv turn user/step blobs (a protobuf layout known from one source only) are counted, never decoded.',
    remedy:
      'None; the session keeps its bubbles and JSON blobs. Sessions with only such turns are not loaded.',
    details: (z) =>
      z.object({
        /** `turn-content`: user/step blobs of a read session; `session`: composers with only protobuf turns. */
        part: z.enum(['turn-content', 'session']),
        count: z.number(),
      }),
  },
  AMBIGUOUS_VIEW_KEPT_ARCHIVED: {
    severity: ['warning'],
    exit: null,
    meaning: 'Divergent replicas make the session ambiguous; the archived rows were kept unchanged.',
    remedy: 'None needed; the archive converges once the replicas agree again.',
    details: (z) => z.object({ action: z.literal('keep-ambiguous') }),
  },
  BACKUP_ARCHIVE_INVALID: {
    severity: [],
    exit: 'io',
    meaning: 'A backup archive is not a valid, safe zip (unreadable, unsafe names, encryption, conflicts).',
    remedy: 'Recreate the backup; an archive that breaks the zip rules is never read in part.',
    details: (z) =>
      z.object({
        reason: z.string(),
        nameProblem: z.string().optional(),
        errno: z.string().optional(),
        method: z.number().optional(),
      }),
  },
  BACKUP_CLOSED_SOURCE: {
    severity: [],
    exit: 'general',
    meaning: 'Internal: a backup database omitted by the workspace scope was asked to hydrate.',
    remedy: 'Report the bug with the command line (no data is needed).',
    details: none,
  },
  BACKUP_ENTRY_INTEGRITY_MISMATCH: {
    severity: ['warning'],
    exit: null,
    meaning: 'An archived file does not match its manifest size or checksum and was skipped.',
    remedy: 'Recreate the backup; the intact entries of this one were still read.',
    details: (z) => z.object({ entryType: z.string(), problem: z.string(), declaredBytes: z.number() }),
  },
  BACKUP_GLOBAL_OMITTED_BY_SCOPE: {
    severity: ['info'],
    exit: null,
    meaning: 'Under --workspace the archived global database was not opened, so its views are partial.',
    remedy: 'Omit --workspace to read the whole archive.',
    details: none,
  },
  BACKUP_MANIFEST_INVALID: {
    severity: [],
    exit: 'io',
    meaning: 'The backup manifest is missing or breaks a manifest v1 / inventory rule.',
    remedy: 'Recreate the backup with a cursor-history version that writes manifest v1.',
    details: (z) => z.object({ reason: z.string() }),
  },
  BACKUP_NOT_FOUND: {
    severity: [],
    exit: 'notFound',
    meaning: 'A backup archive given to the run does not exist.',
    remedy: 'Check the --backup path.',
    details: none,
  },
  BACKUP_SOURCE_UNKNOWN: {
    severity: [],
    exit: 'general',
    meaning: 'Internal: a backup source key has no owning archive.',
    remedy: 'Report the bug with the command line (no data is needed).',
    details: none,
  },
  BACKUP_WORKSPACE_SCOPE_METADATA_REQUIRED: {
    severity: [],
    exit: 'usage',
    meaning: 'A legacy backup with several workspaces and no inventory cannot be read under --workspace.',
    remedy: 'Recreate the backup with cursor-history 0.18.0 or later, or omit --workspace.',
    details: (z) => z.object({ workspaceDatabases: z.number(), remedy: z.string() }),
  },
  CANONICAL_JSON_INVALID: {
    severity: [],
    exit: 'general',
    meaning: 'Internal: a value cannot be written as canonical JSON v1 (non-finite number, cycle, …).',
    remedy: 'Report the bug with the command line (no data is needed).',
    details: (z) => z.object({ reason: z.string() }),
  },
  CAPTURE_DIVERGENT: {
    severity: ['warning'],
    exit: null,
    meaning: 'Several captures of one session differ and none supersedes the others; none was picked.',
    remedy: 'Keep only the capture you trust in the inputs.',
    details: (z) => z.object({ captures: z.number() }),
  },
  CAPTURE_DOCUMENT_MALFORMED: {
    severity: ['error'],
    exit: 'io',
    meaning: 'A capture document is not valid JSON of its format; the source was refused.',
    remedy: 'Save the complete response body again; a cut or edited document is not read.',
    details: (z) => z.object({ surface: z.string(), remedy: z.string(), ...refusal(z) }),
  },
  CAPTURE_INPUT_MISSING: {
    severity: ['warning'],
    exit: null,
    meaning: 'An --input path does not exist.',
    remedy: 'Check the --input paths.',
    details: none,
  },
  CAPTURE_KIND_UNDETECTED: {
    severity: ['warning'],
    exit: null,
    meaning: 'An input file is not a recognised capture and was skipped.',
    remedy: 'Give only CLI stream, Cloud Agent or Markdown export files as --input.',
    details: none,
  },
  CAPTURE_MALFORMED_LINE: {
    severity: ['warning'],
    exit: null,
    meaning: 'A capture line in the middle is not a valid record; the session stays provisional.',
    remedy: 'Capture the stream again if the complete session matters.',
    details: (z) => z.object({ lines: z.array(z.number()), count: z.number() }),
  },
  CAPTURE_NOT_A_FILE: {
    severity: ['warning'],
    exit: 'usage',
    meaning: 'An input is a special file (FIFO, socket, device): it is never opened.',
    remedy: 'Save the capture to a regular file and give that file (or its folder) as --input.',
    details: (z) => z.object({ fileType: z.string(), remedy: z.string().optional() }),
  },
  CAPTURE_PARTIAL_TAIL: {
    severity: ['info'],
    exit: null,
    meaning: 'A capture ends with an unterminated line (a buffered tail), which was not read.',
    remedy: 'None needed; the next capture of the finished stream completes the session.',
    details: none,
  },
  CAPTURE_THINKING_UNTERMINATED: {
    severity: ['info'],
    exit: null,
    meaning: 'A SpecStory thinking block opens but never closes; it was kept as message text.',
    remedy: 'None needed; the message text holds the block as written.',
    details: (z) => z.object({ blocks: z.number(), messages: z.number() }),
  },
  CAPTURE_OUTSIDE_WORKSPACE: {
    severity: ['info'],
    exit: null,
    meaning: 'Under `--workspace`, input captures of another or an unknown workspace were skipped.',
    remedy: "Run without `--workspace` (or with the capture's own workspace) to load them.",
    details: (z) => z.object({ count: z.number(), withoutWorkspace: z.number() }),
  },
  CAPTURE_RECORD_UNATTRIBUTED: {
    severity: ['warning'],
    exit: null,
    meaning: 'Records of a multi-agent capture name no agent and were not attributed to any.',
    remedy: 'Capture each agent to its own file.',
    details: (z) => z.object({ count: z.number() }),
  },
  CAPTURE_SCHEMA_UNSUPPORTED: {
    severity: ['error'],
    exit: 'io',
    meaning: 'A capture declares an unknown major schema version; the source was refused.',
    remedy: 'Upgrade cursor-etl to a version that reads this capture format.',
    details: (z) =>
      z.object({ surface: z.string(), declared: z.string(), remedy: z.string(), ...refusal(z) }),
  },
  CAPTURE_SESSION_ID_CHANGED: {
    severity: ['error'],
    exit: 'io',
    meaning: 'The session ID changes inside one capture file; the source was refused.',
    remedy: 'Split concatenated captures into one file per session.',
    details: (z) =>
      z.object({
        surface: z.string(),
        line: z.number().optional(),
        field: z.string().optional(),
        remedy: z.string(),
        ...refusal(z),
      }),
  },
  CAPTURE_SESSION_ID_MISSING: {
    severity: ['error'],
    exit: 'io',
    meaning: 'A capture names no session, so it has no stable identity; the source was refused.',
    remedy: 'Capture the stream from its start (the first events carry the session or run ID).',
    details: (z) => z.object({ surface: z.string(), remedy: z.string(), ...refusal(z) }),
  },
  CAPTURE_SET_ASIDE: {
    severity: ['warning'],
    exit: null,
    meaning: 'A capture and Cursor hold the same session; one was kept and the other set aside.',
    remedy: 'None needed; see docs/captures.md for which one wins.',
    details: (z) =>
      z.object({
        kept: z.string(),
        keptFidelity: z.string(),
        setAside: z.array(z.string()),
        setAsideFidelity: z.string(),
        rule: z.enum(['complete-over-partial', 'cursor-data-first']),
      }),
  },
  CAPTURE_SYMLINK_SKIPPED: {
    severity: ['warning'],
    exit: null,
    meaning: 'A symlink in the inputs was not followed.',
    remedy: 'Give the link target itself as --input.',
    details: none,
  },
  CAPTURE_UNREADABLE: {
    severity: ['error'],
    exit: 'io',
    meaning: 'A capture file or folder could not be opened or listed; the source was refused.',
    remedy: 'Fix the permissions of the input, then run again.',
    details: (z) => z.object({ errorCode: z.string(), ...refusal(z) }),
  },
  CAPTURE_WALK_LIMIT: {
    severity: ['warning'],
    exit: null,
    meaning:
      'Walking the --input folders stopped at its file bound (capture files admitted) or its depth bound.',
    remedy:
      'Point --input at the capture folders, or raise the bound for one run: --source-limit captureInputFiles=<n>.',
    details: (z) => z.object({ bound: z.enum(['files', 'depth']), limit: z.number() }),
  },
  COMPOSER_BUBBLE_CORRUPTED: {
    severity: ['warning'],
    exit: null,
    meaning: 'Some Composer messages could not be decoded and are kept as placeholders.',
    remedy: 'None; the placeholders keep message identity and order.',
    details: (z) => z.object({ count: z.number() }),
  },
  COMPOSER_MESSAGE_ID_COLLISION: {
    severity: ['warning'],
    exit: null,
    meaning: 'Composer messages of one session share an ID; later ones are renamed `<id>:collision:<n>`.',
    remedy: 'None; the view is partial, so it never replaces a complete archived session.',
    details: (z) => z.object({ count: z.number() }),
  },
  COMPOSER_DATA_UNREADABLE: {
    severity: ['warning'],
    exit: null,
    meaning: "A Composer session's metadata document is unreadable; its messages are kept.",
    remedy: 'None; the session is loaded from its messages.',
    details: (z) => z.object({ reason: z.string() }),
  },
  COMPOSER_INDEX_ENTRY_UNREADABLE: {
    severity: ['warning'],
    exit: null,
    meaning: 'A workspace index entry is unreadable.',
    remedy: 'None; the session is still read from the global database.',
    details: none,
  },
  CONFIG_INVALID: {
    severity: [],
    exit: 'usage',
    meaning: 'The config file is not UTF-8 JSON of the config schema.',
    remedy: 'Fix the config file at the reported path.',
    details: (z) => z.object({ path: z.string().optional(), problem: z.string().optional() }),
  },
  CONFIG_NOT_FOUND: {
    severity: [],
    exit: 'notFound',
    meaning: 'The config file given with --config does not exist.',
    remedy: 'Check the --config path.',
    details: none,
  },
  DATASET_FILE_DAMAGED: {
    severity: [],
    exit: 'integrity',
    meaning:
      'A data file of the published Parquet state is missing or differs from the size and sha256 its manifest records.',
    remedy:
      'Run etl run: it rebuilds damaged partitions from the sources; sessions they no longer hold need a backup.',
    details: (z) =>
      z.object({
        filesChecked: z.number(),
        damaged: z.array(
          z.object({
            table: z.string(),
            partition: z.string().nullable(),
            damage: z.enum(['missing', 'size', 'sha256']),
          }),
        ),
        remedy: z.string(),
      }),
  },
  DATASET_FILE_SET_ASIDE: {
    severity: ['warning'],
    exit: null,
    meaning:
      'A damaged data file was left out of the new Parquet state; its partition was rebuilt, started empty or left out.',
    remedy:
      'None for sessions the sources still hold; details.sessionsNotInSources sessions need a backup of the dataset.',
    details: (z) =>
      z.object({
        table: z.string(),
        partition: z.string().nullable(),
        damage: z.enum(['missing', 'size', 'sha256']),
        action: z.enum(['rebuilt-from-sources', 'ledger-restarted', 'left-out']),
        sessionsNotInSources: z.number().nullable().optional(),
      }),
  },
  DATASET_LINKS_UNAVAILABLE: {
    severity: ['info'],
    exit: null,
    meaning:
      "The dataset's storage refused a hard link: this run copied and flushed the unchanged files instead of sharing them.",
    remedy:
      'None needed; keep the dataset on a file system with hard links to share unchanged files (docs/parquet.md).',
    details: (z) => z.object({ errorCode: z.enum(['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK']) }),
  },
  DATASET_MANIFEST_INVALID: {
    severity: [],
    exit: 'integrity',
    meaning: 'The published Parquet dataset manifest is unreadable or of an unknown format.',
    remedy: 'Restore the dataset directory from a backup, or rebuild it with etl run into a new target.',
    details: (z) => z.object({ reason: z.string() }),
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
  EXPORT_OUT_EXISTS: {
    severity: [],
    exit: 'usage',
    meaning:
      '--out already holds a previous export or another file, which an export never replaces silently.',
    remedy: 'Choose a new --out, or pass --overwrite to replace the previous export.',
    details: (z) =>
      z.object({ found: z.enum(['file', 'directory', 'non-empty-directory']), remedy: z.string() }),
  },
  EXPORT_QUERY_FAILED: {
    severity: [],
    exit: 'usage',
    meaning: 'Exporting a table failed.',
    remedy: 'Check the export options and the free space of the destination.',
    details: (z) => z.object({ table: z.string() }),
  },
  EXPORT_TABLE_UNKNOWN: {
    severity: [],
    exit: 'usage',
    meaning: '--tables names a table that cannot be exported.',
    remedy: 'Use one of the tables listed in details.known.',
    details: (z) => z.object({ table: z.string(), known: z.array(z.string()) }),
  },
  EXPORT_WHERE_INVALID: {
    severity: [],
    exit: 'usage',
    meaning: "--where is not one boolean expression over the exported table's columns.",
    remedy:
      'Give one expression such as "updated_at >= \'2025-01-01\'"; statements, subqueries and other tables are refused.',
    details: (z) =>
      z.object({
        reason: z.enum([
          'syntax',
          'semicolon',
          'not-one-expression',
          'subquery',
          'star',
          'parameter',
          'other-table',
          'unknown-column',
        ]),
        table: z.string().optional(),
      }),
  },
  EXPORT_WRITE_FAILED: {
    severity: [],
    exit: 'io',
    meaning:
      'Writing the export failed (disk full, I/O error, a directory in the way); nothing was published.',
    remedy: 'Free space or fix the destination, then export again.',
    details: (z) => z.object({ reason: z.string(), remedy: z.string() }),
  },
  FILE_EDIT_VALUE_INVALID: {
    severity: ['warning'],
    exit: null,
    meaning: 'A file edit field (path, count, text, decision) had the wrong type or range; it is unknown.',
    remedy: 'None needed; the edit row keeps NULL (or decision `unknown`) there, never a guess.',
    details: (z) =>
      z.object({
        /** The source field, e.g. `old_string`, `result.linesAdded`, `path`, `user_decision`. */
        field: z.string(),
        /** How many values of this field in the session were dropped. */
        count: z.number(),
      }),
  },
  INTERNAL_ERROR: {
    severity: [],
    exit: 'general',
    meaning: 'An unexpected error (a bug), reported without internals.',
    remedy: 'Run again with CURSOR_ETL_DEBUG=1 to see the original error, and report it.',
    details: (z) => z.object({ errorName: z.string() }),
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
  ORIGIN_VIEWS_DIVERGED: {
    severity: ['warning'],
    exit: null,
    meaning:
      'Two origins hold different complete views of the session, neither a newer extension; archived rows kept.',
    remedy: 'Check which machine holds the right history; merge again once one view extends the other.',
    details: (z) => z.object({ action: z.literal('keep-ambiguous'), rule: z.literal('origins-diverge') }),
  },
  ORIGIN_VIEW_KEPT_NEWER: {
    severity: ['info'],
    exit: null,
    meaning: "Another origin's older view was not loaded: the archived view is newer and extends it.",
    remedy: 'None needed: the newer view of the session is archived.',
    details: (z) => z.object({ action: z.literal('keep-complete'), rule: z.literal('newer-extends') }),
  },
  PARTIAL_VIEW_KEPT_COMPLETE: {
    severity: ['warning'],
    exit: null,
    meaning: 'A partial view was not loaded over the archived complete session; the archive is unchanged.',
    remedy: 'None needed: partial never overwrites complete.',
    details: (z) => z.object({ action: z.literal('keep-complete') }),
  },
  PERMISSION_DENIED: {
    severity: [],
    exit: 'io',
    meaning: 'The operating system refused a write (EACCES, EPERM or EROFS) on a path etl writes.',
    remedy: 'Give the user running etl write access to the path of details.pathKind, or choose another.',
    details: (z) =>
      z.object({
        pathKind: z.enum(['warehouse', 'dataset', 'lock', 'export-out']),
        operation: z.string(),
        reason: z.enum(['EACCES', 'EPERM', 'EROFS']),
        published: z.boolean().optional(),
        remedy: z.string(),
      }),
  },
  QUERY_FAILED: {
    severity: [],
    exit: 'usage',
    meaning: 'The SQL given to etl query failed, or is not exactly one read statement.',
    remedy: 'Give one SELECT or EXPLAIN over the warehouse: files, extensions and the network are closed.',
    details: (z) =>
      z.object({
        reason: z.enum(['not-one-statement', 'not-a-read-statement', 'outside-warehouse', 'failed']),
      }),
  },
  REDACTION_APPLIED: {
    severity: ['info'],
    exit: null,
    meaning: '--redact replaced secret-looking values in the loaded sessions.',
    remedy: 'None; the counts say how many values of each kind were replaced.',
    details: (z) =>
      z.object({
        redactions: z.number(),
        sessionsAffected: z.number(),
        byRule: z.record(z.string(), z.number()),
        ruleset: z.number(),
      }),
  },
  REDACTION_ARCHIVE_REWRITTEN: {
    severity: ['info'],
    exit: null,
    meaning: "Archived sessions were re-redacted under this build's ruleset before the run loaded sources.",
    remedy: 'None; the counts say how many values of each rule were replaced.',
    details: (z) =>
      z.object({
        sessions: z.number(),
        redactions: z.number(),
        byRule: z.record(z.string(), z.number()),
        ruleset: z.number(),
      }),
  },
  REDACTION_KEY_INVALID: {
    severity: [],
    exit: 'usage',
    meaning: 'The redaction identity key file does not hold a key cursor-etl wrote.',
    remedy: 'Point redactionKeyFile at the key file written for this warehouse (64 lower-case hex digits).',
    details: (z) => z.object({ remedy: z.string() }),
  },
  REDACTION_KEY_MISMATCH: {
    severity: [],
    exit: 'usage',
    meaning: "The identity key differs from the one this warehouse's sealed IDs were made with.",
    remedy: 'Point redactionKeyFile in the config file at the key file used for this warehouse.',
    details: (z) => z.object({ remedy: z.string() }),
  },
  REDACTION_KEY_UNREADABLE: {
    severity: [],
    exit: 'io',
    meaning: 'The redaction identity key file exists but could not be read.',
    remedy: 'Check the permissions of the key file (owner-readable, mode 0600).',
    details: none,
  },
  REDACTION_KEY_UNWRITABLE: {
    severity: [],
    exit: 'io',
    meaning: 'The redaction identity key file could not be created.',
    remedy: 'Point redactionKeyFile in the config file at a writable location.',
    details: (z) => z.object({ remedy: z.string() }),
  },
  REDACTION_OPTIONS_CONFLICT: {
    severity: [],
    exit: 'usage',
    meaning: 'Home-path redaction was asked for with redaction turned off.',
    remedy: 'Drop --no-redact, or drop --redact-home-paths.',
    details: none,
  },
  REDACTION_POLICY_DOWNGRADE: {
    severity: [],
    exit: 'usage',
    meaning: 'A run would load plaintext into a redacted warehouse.',
    remedy: 'Run without --no-redact (the stored policy applies), or add --allow-unredacted.',
    details: (z) => z.object({ storedHomePaths: z.boolean(), remedy: z.string() }),
  },
  REDACTION_POLICY_INVALID: {
    severity: [],
    exit: 'integrity',
    meaning: 'The redaction policy stored in the warehouse is unreadable.',
    remedy: 'Restore the warehouse from a backup; its redaction state cannot be trusted.',
    details: (z) => z.object({ remedy: z.string() }),
  },
  REDACTION_RULESET_NEWER: {
    severity: [],
    exit: 'integrity',
    meaning: 'The warehouse was redacted by a newer ruleset than this build has.',
    remedy: 'Upgrade cursor-etl.',
    details: (z) =>
      z.object({ warehouseRuleset: z.number(), supportedRuleset: z.number(), remedy: z.string() }),
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
  SESSION_NOT_FOUND: {
    severity: [],
    exit: 'notFound',
    meaning: 'etl show named a session the warehouse does not hold.',
    remedy:
      'Check the session ID (byte-exact, case-sensitive), e.g. with etl query "select session_id from sessions".',
    details: none,
  },
  SDK_AGENT_STORES_UNREAD: {
    severity: ['info'],
    exit: null,
    meaning:
      'Per-agent SDK store.db files exist beside an index.db; their schema is unknown, so none is read.',
    remedy: 'None; each agent is loaded from index.db and its transcript.',
    details: (z) => z.object({ count: z.number() }),
  },
  // usage (issue 26 §1)
  USAGE_DATA_UNREAD: {
    severity: ['warning'],
    exit: null,
    meaning:
      'A Composer session stores a non-empty usageData of an unconfirmed shape; it is not read into usage or cost.',
    remedy: 'None; the value is kept as stored in the session extensions (usageData) for inspection.',
    details: (z) =>
      z.object({
        /** `object`, `array` or `scalar`: the JSON kind of the stored value. */
        shape: z.enum(['object', 'array', 'scalar']),
        /** Members of an object or elements of an array; 0 for a scalar. */
        members: z.number(),
      }),
  },
  USAGE_FIELD_INVALID: {
    severity: ['warning'],
    exit: null,
    meaning:
      'A token count, Composer mode or Store model of the wrong type or range; that value is unknown (NULL), never defaulted.',
    remedy:
      'None; the other counts and the session are loaded. A newer Cursor usage shape is the usual cause.',
    details: (z) =>
      z.object({
        representation: z.string(),
        /** The usage member whose value was rejected. */
        field: z.string(),
        count: z.number(),
      }),
  },
  PRICE_TABLE_INVALID: {
    severity: [],
    exit: 'usage',
    meaning: 'The price table given to etl prices import is not valid CSV or JSON of the documented shape.',
    remedy: 'Fix the named row and field (docs/usage.md#price-table), then import again.',
    details: (z) =>
      z.object({
        /** 1-based row of the price table (CSV line or JSON array position); absent for the file. */
        row: z.number().optional(),
        field: z.string().optional(),
        problem: z.string(),
      }),
  },
  SDK_FIELD_INVALID: {
    severity: ['warning'],
    exit: null,
    meaning:
      'SDK agent store values of the wrong type or not JSON; each such field is unknown, never defaulted.',
    remedy: 'None; the rest of the agent is loaded. A newer @cursor/sdk schema is the usual cause.',
    details: (z) =>
      z.object({
        table: z.enum(['agents', 'runs', 'run_events']),
        /** The column, or `payload_json.<member>` inside an event payload. */
        field: z.string(),
        reason: z.enum(['wrong-type', 'malformed-json']),
        count: z.number(),
      }),
  },
  SOURCE_ENCODING_INVALID: {
    severity: ['warning', 'error'],
    exit: 'io',
    meaning: 'Source text (or an entry name) is not strict UTF-8; it is never guessed or transcoded.',
    remedy: 'Save the source as UTF-8; what could be read is kept and the result is partial.',
    details: (z) =>
      z.object({
        problem: z.string(),
        sourceKind: z.string().optional(),
        part: z.literal('entry-name').optional(),
        count: z.number().optional(),
        remedy: z.string().optional(),
        ...refusal(z),
      }),
  },
  SECRETS_SUSPECTED: {
    severity: [],
    exit: 'integrity',
    meaning:
      'etl verify --secrets found suspected secrets in a redacted warehouse (locations, never values).',
    remedy: 'Run etl redact --target … with this build to re-redact the archive.',
    details: (z) =>
      z.object({
        redacted: z.boolean(),
        sessionsScanned: z.number(),
        suspects: z.array(
          z.object({
            table: z.string(),
            column: z.string(),
            sessionId: z.string(),
            byRule: z.record(z.string(), z.number()),
          }),
        ),
        remedy: z.string(),
      }),
  },
  SOURCES_DIFFER_FROM_ARCHIVE: {
    severity: [],
    exit: 'integrity',
    meaning:
      'etl verify --sources found sessions that differ, are missing or are gone from the sources (IDs only).',
    remedy: 'Run etl run (without --since-last) with the same source options.',
    details: (z) =>
      z.object({
        sessionsRead: z.number(),
        sessionsArchived: z.number(),
        differ: z.array(z.string()),
        missing: z.array(z.string()),
        extra: z.array(z.string()),
        remedy: z.string(),
      }),
  },
  SOURCE_LIMIT_CONFIGURATION_INVALID: {
    severity: [],
    exit: 'usage',
    meaning: 'A --source-limit or config read-limit override is invalid.',
    remedy: 'Use --source-limit <bound>=<positive integer> with a bound of Source Read Limits v1.',
    details: (z) =>
      z.object({
        policyVersion: z.string(),
        field: z.string(),
        value: z.union([z.string(), z.number(), z.boolean()]).optional(),
        receivedType: z.string(),
        constraint: z.string(),
        remedy: z.string(),
      }),
  },
  SOURCE_LIMIT_EXCEEDED: {
    severity: ['warning', 'error'],
    exit: 'io',
    meaning:
      'A Source Read Limits v1 bound was crossed: the result is partial, or fatal when nothing safe remains.',
    remedy: 'If the source is trusted, raise the bound for one run: --source-limit <bound>=<larger value>.',
    details: limitExceeded,
  },
  SOURCE_ROOT_MISSING: {
    severity: ['warning'],
    exit: null,
    meaning: 'A Cursor data root does not exist; its sessions were neither read nor marked absent.',
    remedy: 'Check --cursor-user-dir / --cursor-store-root.',
    details: (z) => z.object({ root: z.string() }),
  },
  SOURCE_UNREADABLE: {
    severity: ['error'],
    exit: 'io',
    meaning: 'A source database, file or folder could not be opened or listed.',
    remedy: 'Fix the permissions or close the program holding it; the other sources were read.',
    details: (z) =>
      z.object({
        sourceKind: z.string().optional(),
        reason: z.string().optional(),
        representation: z.string().optional(),
        database: z.string().optional(),
        part: z.literal('directory').optional(),
        count: z.number().optional(),
        ...refusal(z),
      }),
  },
  STORE_DB_PARTIAL: {
    severity: ['warning'],
    exit: null,
    meaning: 'A store.db conversation could not be read completely; the view is partial.',
    remedy: 'None; the counts name the problems found in the blob tree.',
    details: (z) => z.object({ problems: z.record(z.string(), z.number()) }),
  },
  STORE_META_INVALID: {
    severity: ['warning'],
    exit: null,
    meaning: 'A store.db meta row is not hex-encoded JSON naming a valid root blob.',
    remedy: 'None; the session keeps its other representations.',
    details: (z) => z.object({ reason: z.string() }),
  },
  STORE_META_JSON_INVALID: {
    severity: ['warning'],
    exit: null,
    meaning: "A Store session's meta.json is not supported metadata; its workspace and times are unknown.",
    remedy: 'None; the session is loaded without them.',
    details: (z) => z.object({ reason: z.string(), outcome: outcome(z) }),
  },
  STORE_TRANSCRIPT_PARTIAL: {
    severity: ['warning'],
    exit: null,
    meaning: 'An agent transcript has lines that are not messages; the view is partial.',
    remedy: 'None; the counts say which kinds of lines were skipped.',
    details: (z) =>
      z.object({
        state: z.string(),
        errorLines: z.number(),
        unsupportedLines: z.number(),
        malformedLines: z.number(),
        lifecycleFrames: z.number(),
      }),
  },
  SUBAGENT_LINK_CONFLICT: {
    severity: ['warning'],
    exit: null,
    meaning:
      'Sources disagree on a subagent link fact; the value of the stronger source is kept (docs/compatibility-matrix.md).',
    remedy: 'None; `keptSource` and `otherSource` name the disagreeing sources for a manual check.',
    details: (z) =>
      z.object({
        field: z.enum(['parent_session_id', 'root_session_id', 'spawn_tool_call_id', 'subagent_type']),
        keptSource: z.string(),
        otherSource: z.string(),
      }),
  },
  SUBAGENT_LEGACY_TASK_SESSION: {
    severity: ['info'],
    exit: null,
    meaning:
      'A legacy sub-composer session (`task-<toolCallId>`) is loaded as a session of its own; no source links it to a parent.',
    remedy: 'None; its spawning tool call is part of its session ID.',
    details: none,
  },
  SUBAGENT_LINK_SELF: {
    severity: ['warning'],
    exit: null,
    meaning: 'A source names the session as its own parent or root; that fact is ignored.',
    remedy: 'None; the other sources still link the session.',
    details: (z) => z.object({ source: z.string() }),
  },
  TARGET_INVALID: {
    severity: [],
    exit: 'usage',
    meaning: '--target names an unknown target kind.',
    remedy: 'Use duckdb:PATH or parquet:DIR.',
    details: (z) => z.object({ received: z.string() }),
  },
  TIME_VALUE_UNKNOWN: {
    severity: ['warning'],
    exit: null,
    meaning:
      'A source time value is not a time (fraction, out of range, no zone, text); the field is unknown.',
    remedy: 'None needed; docs/time.md lists the accepted forms. Views show the time as NULL.',
    details: (z) =>
      z.object({
        /** The source field, e.g. `bubble.createdAt` or `meta.json.createdAtMs`. */
        field: z.string(),
        reason: z.enum(TIME_REJECTIONS),
        /** How many values of this field in the session were rejected for this reason. */
        count: z.number(),
      }),
  },
  UNKNOWN_CONTRIBUTION: {
    severity: [],
    exit: 'general',
    meaning: 'Internal: no transform is registered for a contribution kind.',
    remedy: 'Report the bug with the command line (no data is needed).',
    details: (z) => z.object({ kind: z.string() }),
  },
  USAGE_ERROR: {
    severity: [],
    exit: 'usage',
    meaning: 'The command line is invalid (unknown option, missing argument).',
    remedy: 'See etl --help.',
    details: (z) => z.object({ reason: z.string() }),
  },
  WAREHOUSE_BUSY: {
    severity: [],
    exit: 'io',
    meaning: 'Another program holds the DuckDB file (retryable).',
    remedy: 'Close the other program holding the DuckDB file (e.g. a SQL GUI) or wait, then retry.',
    details: (z) => z.object({ holderPid: z.number().nullable(), remedy: z.string() }),
  },
  WAREHOUSE_INTEGRITY_FAILED: {
    severity: [],
    exit: 'integrity',
    meaning: 'etl verify found rows that contradict their stored digests or keys.',
    remedy: 'Rebuild the warehouse from the Cursor data with etl run into a new target.',
    details: (z) => z.object({ sessionsChecked: z.number(), problems: z.array(z.unknown()) }),
  },
  WAREHOUSE_MIGRATION_REQUIRED: {
    severity: [],
    exit: 'usage',
    meaning:
      'A read-only command met a warehouse of an older schema version, or a Parquet state an older build wrote.',
    remedy:
      'Run etl run once with this version: it migrates in place and replaces once the sessions whose IDs changed.',
    details: warehouseVersions,
  },
  WAREHOUSE_NOT_FOUND: {
    severity: [],
    exit: 'notFound',
    meaning: 'No warehouse (or published Parquet dataset) exists at the target.',
    remedy: 'Run etl run first, or check --target.',
    details: none,
  },
  WAREHOUSE_TRUNCATED: {
    severity: [],
    exit: 'integrity',
    meaning:
      'The DuckDB warehouse file is shorter than its header declares; it was neither read nor written.',
    remedy: 'Restore the file from a complete copy, or rebuild the archive with etl run into a new target.',
    details: (z) => z.object({ expectedBytes: z.number(), actualBytes: z.number() }),
  },
  WAREHOUSE_UNREADABLE: {
    severity: [],
    exit: 'io',
    meaning: 'The warehouse file could not be opened.',
    remedy: 'Check that --target names a DuckDB file this user may read and write.',
    details: (z) => z.object({ reason: z.string() }),
  },
  WAREHOUSE_VERSION_NEWER: {
    severity: [],
    exit: 'integrity',
    meaning: 'The warehouse was written by a newer cursor-etl; nothing was touched.',
    remedy: 'Upgrade cursor-etl.',
    details: warehouseVersions,
  },
  WAREHOUSE_WRITE_FAILED: {
    severity: [],
    exit: 'io',
    meaning: 'Writing the warehouse failed (disk full, permissions, I/O); committed sessions are intact.',
    remedy: 'Free space or fix the storage, then run again: the next run converges.',
    details: (z) =>
      z.object({
        target: z.enum(['duckdb', 'parquet']),
        operation: z.string(),
        reason: z.string(),
        published: z.boolean().optional(),
        remedy: z.string(),
      }),
  },
  WORKSPACE_AMBIGUOUS: {
    severity: [],
    exit: 'usage',
    meaning: 'The --workspace filter matches several workspaces.',
    remedy: 'Pass the full normalized workspace path to --workspace.',
    details: (z) =>
      z.object({
        candidates: z.number().optional(),
        candidateCount: z.number().optional(),
        matchKind: z.literal('unique-suffix').optional(),
        remedy: z.string().optional(),
      }),
  },
  WORKSPACE_JSON_INVALID: {
    severity: ['warning'],
    exit: null,
    meaning:
      "A workspace.json is present but unreadable (cut, not JSON, a wrong-typed field): its sessions' workspace is unknown.",
    remedy:
      'None; the view is partial (reason code `workspace-unknown`), so it never replaces a complete archived session.',
    details: (z) => z.object({ reason: z.string(), outcome: outcome(z) }),
  },
  WORKSPACE_NOT_FOUND: {
    severity: ['info'],
    exit: null,
    meaning: 'No session belongs to the requested workspace; nothing was loaded.',
    remedy: 'Check the path, or pass a trailing part of it (e.g. the project folder name).',
    details: (z) => z.object({ remedy: z.string() }),
  },
} as const satisfies Record<string, CatalogueEntry>;

export type Code = keyof typeof CATALOGUE;

/** The `details` a code carries, as written at the call site. */
export type DetailsOf<C extends Code> = C extends Code
  ? Zod.input<ReturnType<(typeof CATALOGUE)[C]['details']>>
  : never;
