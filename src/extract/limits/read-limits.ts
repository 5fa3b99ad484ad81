/**
 * Source Read Limits v1 (`source-read-limits/v1`): the 13 inclusive bounds, their defaults, and the
 * validation every override passes before any source I/O; plus the input walk's file bound.
 */
import { UsageError } from '../../shared/errors.js';

export const READ_LIMITS_POLICY = 'source-read-limits/v1';

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;

export type LimitUnit = 'bytes' | 'records' | 'rows' | 'ratio' | 'files';
export type LimitSourceKind = 'jsonl' | 'sqlite' | 'zip';

interface LimitSpec {
  readonly default: number;
  readonly unit: LimitUnit;
  readonly sourceKind: LimitSourceKind;
}

export const LIMIT_SPECS = {
  jsonlRecordBytes: { default: 64 * MiB, unit: 'bytes', sourceKind: 'jsonl' },
  jsonlSourceBytes: { default: 4 * GiB, unit: 'bytes', sourceKind: 'jsonl' },
  jsonlRecordCount: { default: 2_000_000, unit: 'records', sourceKind: 'jsonl' },
  sqlitePageRows: { default: 256, unit: 'rows', sourceKind: 'sqlite' },
  sqlitePageBytes: { default: 256 * MiB, unit: 'bytes', sourceKind: 'sqlite' },
  sqliteValueBytes: { default: 128 * MiB, unit: 'bytes', sourceKind: 'sqlite' },
  sqliteRowCount: { default: 5_000_000, unit: 'rows', sourceKind: 'sqlite' },
  sqliteDecodedBytes: { default: 8 * GiB, unit: 'bytes', sourceKind: 'sqlite' },
  zipCompressedBytes: { default: 16 * GiB, unit: 'bytes', sourceKind: 'zip' },
  zipEntryCount: { default: 65_536, unit: 'records', sourceKind: 'zip' },
  zipEntryBytes: { default: 8 * GiB, unit: 'bytes', sourceKind: 'zip' },
  zipAggregateBytes: { default: 16 * GiB, unit: 'bytes', sourceKind: 'zip' },
  zipCompressionRatio: { default: 200, unit: 'ratio', sourceKind: 'zip' },
  /** Not a v1 bound: the capture files one run admits from walking its --input folders. */
  captureInputFiles: { default: 10_000, unit: 'files', sourceKind: 'jsonl' },
} as const satisfies Record<string, LimitSpec>;

export type LimitField = keyof typeof LIMIT_SPECS;
export type ReadLimits = Readonly<Record<LimitField, number>>;

export const LIMIT_FIELDS = Object.keys(LIMIT_SPECS) as LimitField[];

export const DEFAULT_READ_LIMITS: ReadLimits = Object.freeze(
  Object.fromEntries(LIMIT_FIELDS.map((field) => [field, LIMIT_SPECS[field].default])) as Record<
    LimitField,
    number
  >,
);

export function isLimitField(name: string): name is LimitField {
  return Object.hasOwn(LIMIT_SPECS, name);
}

export function isByteField(field: LimitField): boolean {
  return LIMIT_SPECS[field].unit === 'bytes';
}

const ORDERING: ReadonlyArray<readonly [LimitField, LimitField]> = [
  ['jsonlRecordBytes', 'jsonlSourceBytes'],
  ['sqlitePageRows', 'sqliteRowCount'],
  ['sqliteValueBytes', 'sqlitePageBytes'],
  ['sqlitePageBytes', 'sqliteDecodedBytes'],
  ['zipEntryBytes', 'zipAggregateBytes'],
];

export interface LimitConfigurationProblem {
  field: string;
  value?: string | number | boolean;
  receivedType: string;
  constraint: string;
  remedy: string;
}

export function limitConfigurationError(problem: LimitConfigurationProblem): UsageError {
  return new UsageError(
    'SOURCE_LIMIT_CONFIGURATION_INVALID',
    `Invalid source read limit override for ${problem.field}: ${problem.constraint}`,
    { policyVersion: READ_LIMITS_POLICY, ...problem },
  );
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function safePrimitive(value: unknown): string | number | boolean | undefined {
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return value.length <= 64 ? value : `${value.slice(0, 64)}…`;
  return undefined;
}

/**
 * Applies explicit overrides to the defaults. Undefined members inherit defaults; `null`, unknown
 * keys, `policyVersion`, and non-positive or unsafe integers are rejected, then the ordering
 * constraints are checked on the final map.
 */
export function resolveReadLimits(overrides: Readonly<Record<string, unknown>> = {}): ReadLimits {
  const result: Record<LimitField, number> = { ...DEFAULT_READ_LIMITS };
  for (const [field, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    const shown = safePrimitive(value);
    const base = { field, receivedType: typeOf(value), ...(shown === undefined ? {} : { value: shown }) };
    if (field === 'policyVersion') {
      throw limitConfigurationError({
        ...base,
        constraint: 'policyVersion cannot be overridden',
        remedy: `Remove policyVersion; the policy is always ${READ_LIMITS_POLICY}.`,
      });
    }
    if (!isLimitField(field)) {
      throw limitConfigurationError({
        ...base,
        constraint: 'unknown field',
        remedy: `Use one of: ${LIMIT_FIELDS.join(', ')}.`,
      });
    }
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
      throw limitConfigurationError({
        ...base,
        constraint: 'must be a positive safe integer',
        remedy: `Give ${field} as a positive whole number${isByteField(field) ? ' of bytes' : ''}.`,
      });
    }
    result[field] = value;
  }
  for (const [lower, upper] of ORDERING) {
    if (result[lower] > result[upper]) {
      throw limitConfigurationError({
        field: lower,
        value: result[lower],
        receivedType: 'number',
        constraint: `${lower} <= ${upper}`,
        remedy: `Lower ${lower} or raise ${upper} (currently ${result[upper]}).`,
      });
    }
  }
  return Object.freeze(result);
}
