/** Codes of the command line: usage, config, permissions, unknown sessions and internal errors. */
import { type CatalogueEntry, none } from './catalogue-entry.js';

export const CLI_CODES = {
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
  INTERNAL_ERROR: {
    severity: [],
    exit: 'general',
    meaning: 'An unexpected error (a bug), reported without internals.',
    remedy: 'Run again with CURSOR_ETL_DEBUG=1 to see the original error, and report it.',
    details: (z) => z.object({ errorName: z.string() }),
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
  SESSION_NOT_FOUND: {
    severity: [],
    exit: 'notFound',
    meaning: 'etl show named a session the warehouse does not hold.',
    remedy:
      'Check the session ID (byte-exact, case-sensitive), e.g. with etl query "select session_id from sessions".',
    details: none,
  },
  USAGE_ERROR: {
    severity: [],
    exit: 'usage',
    meaning: 'The command line is invalid (unknown option, missing argument).',
    remedy: 'See etl --help.',
    details: (z) => z.object({ reason: z.string() }),
  },
} as const satisfies Record<string, CatalogueEntry>;
