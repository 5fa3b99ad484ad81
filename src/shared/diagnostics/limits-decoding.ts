/** Codes of source limits and of values that cannot be decoded (encoding, time, fields). */
import { TIME_REJECTIONS } from '../time/read-instant.js';
import { type CatalogueEntry, refusal, type ZodApi } from './catalogue-entry.js';

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

export const LIMIT_DECODING_CODES = {
  CANONICAL_JSON_INVALID: {
    severity: [],
    exit: 'general',
    meaning: 'Internal: a value cannot be written as canonical JSON v1 (non-finite number, cycle, …).',
    remedy: 'Report the bug with the command line (no data is needed).',
    details: (z) => z.object({ reason: z.string() }),
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
} as const satisfies Record<string, CatalogueEntry>;
