/** Codes of finding and reading capture files, data roots and workspaces. */
import { type CatalogueEntry, none, outcome, refusal } from './catalogue-entry.js';

export const SOURCE_CODES = {
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
  CAPTURE_OUTSIDE_WORKSPACE: {
    severity: ['info'],
    exit: null,
    meaning: 'Under `--workspace`, input captures of another or an unknown workspace were skipped.',
    remedy: "Run without `--workspace` (or with the capture's own workspace) to load them.",
    details: (z) => z.object({ count: z.number(), withoutWorkspace: z.number() }),
  },
  CAPTURE_PARTIAL_TAIL: {
    severity: ['info'],
    exit: null,
    meaning: 'A capture ends with an unterminated line (a buffered tail), which was not read.',
    remedy: 'None needed; the next capture of the finished stream completes the session.',
    details: none,
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
  CAPTURE_THINKING_UNTERMINATED: {
    severity: ['info'],
    exit: null,
    meaning: 'A SpecStory thinking block opens but never closes; it was kept as message text.',
    remedy: 'None needed; the message text holds the block as written.',
    details: (z) => z.object({ blocks: z.number(), messages: z.number() }),
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
