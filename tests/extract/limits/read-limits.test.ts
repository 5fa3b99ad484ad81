import { describe, expect, it } from 'vitest';
import { checkLimit, SourceLimitExceeded } from '../../../src/extract/limits/limit-exceeded.js';
import {
  DEFAULT_READ_LIMITS,
  LIMIT_FIELDS,
  resolveReadLimits,
} from '../../../src/extract/limits/read-limits.js';
import { parseSourceLimitOptions } from '../../../src/extract/limits/source-limit-option.js';
import { UsageError } from '../../../src/shared/errors.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

function configError(work: () => unknown): UsageError {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).code).toBe('SOURCE_LIMIT_CONFIGURATION_INVALID');
    expect((error as UsageError).exitCode).toBe(2);
    return error as UsageError;
  }
  throw new Error('expected SOURCE_LIMIT_CONFIGURATION_INVALID');
}

describe('Source Read Limits v1 defaults', () => {
  it('has all 13 fields with the contract defaults, plus the input walk file bound', () => {
    expect(LIMIT_FIELDS).toHaveLength(14);
    expect(DEFAULT_READ_LIMITS).toEqual({
      jsonlRecordBytes: 64 * MiB,
      jsonlSourceBytes: 4 * GiB,
      jsonlRecordCount: 2_000_000,
      sqlitePageRows: 256,
      sqlitePageBytes: 256 * MiB,
      sqliteValueBytes: 128 * MiB,
      sqliteRowCount: 5_000_000,
      sqliteDecodedBytes: 8 * GiB,
      zipCompressedBytes: 16 * GiB,
      zipEntryCount: 65_536,
      zipEntryBytes: 8 * GiB,
      zipAggregateBytes: 16 * GiB,
      zipCompressionRatio: 200,
      captureInputFiles: 10_000,
    });
  });

  it('the defaults are inclusive: equality is accepted and the first unit above a bound fails', () => {
    expect(() => checkLimit('jsonlRecordCount', 10, 10)).not.toThrow();
    const error = (() => {
      try {
        checkLimit('jsonlRecordCount', 10, 11);
      } catch (e) {
        return e as SourceLimitExceeded;
      }
    })();
    expect(error).toBeInstanceOf(SourceLimitExceeded);
    expect(error?.details).toEqual({
      policyVersion: 'source-read-limits/v1',
      sourceKind: 'jsonl',
      bound: 'jsonlRecordCount',
      limit: 10,
      observedAtLeast: 11,
      unit: 'records',
      outcome: 'fatal',
      retryableWithOverride: true,
      remedy: expect.stringContaining('--source-limit jsonlRecordCount='),
    });
    expect(error?.asDiagnostic().details.outcome).toBe('partial');
  });
});

describe('override validation happens before any source I/O', () => {
  it('accepts explicit positive safe integers and inherits undefined members', () => {
    const limits = resolveReadLimits({ jsonlRecordBytes: 1024, sqlitePageRows: undefined });
    expect(limits.jsonlRecordBytes).toBe(1024);
    expect(limits.sqlitePageRows).toBe(256);
  });

  it.each([
    ['null', { jsonlRecordBytes: null }, 'must be a positive safe integer'],
    ['unknown own key', { jsonlBytes: 5 }, 'unknown field'],
    ['policyVersion', { policyVersion: 'source-read-limits/v2' }, 'policyVersion cannot be overridden'],
    ['zero', { sqlitePageRows: 0 }, 'must be a positive safe integer'],
    ['negative', { sqlitePageRows: -1 }, 'must be a positive safe integer'],
    ['fraction', { sqlitePageRows: 1.5 }, 'must be a positive safe integer'],
    ['unsafe integer', { jsonlSourceBytes: 2 ** 60 }, 'must be a positive safe integer'],
    ['string', { sqlitePageRows: '5' }, 'must be a positive safe integer'],
    [
      'jsonlRecordBytes <= jsonlSourceBytes',
      { jsonlRecordBytes: 10, jsonlSourceBytes: 9 },
      'jsonlRecordBytes <= jsonlSourceBytes',
    ],
    [
      'sqlitePageRows <= sqliteRowCount',
      { sqlitePageRows: 11, sqliteRowCount: 10 },
      'sqlitePageRows <= sqliteRowCount',
    ],
    [
      'sqliteValueBytes <= sqlitePageBytes',
      { sqliteValueBytes: 11, sqlitePageBytes: 10 },
      'sqliteValueBytes <= sqlitePageBytes',
    ],
    [
      'sqlitePageBytes <= sqliteDecodedBytes',
      { sqlitePageBytes: 11, sqliteDecodedBytes: 10, sqliteValueBytes: 5 },
      'sqlitePageBytes <= sqliteDecodedBytes',
    ],
    [
      'zipEntryBytes <= zipAggregateBytes',
      { zipEntryBytes: 11, zipAggregateBytes: 10 },
      'zipEntryBytes <= zipAggregateBytes',
    ],
  ])('rejects %s', (_label, overrides, constraint) => {
    const error = configError(() => resolveReadLimits(overrides as Record<string, unknown>));
    expect(error.details.constraint).toBe(constraint);
    expect(error.details).toHaveProperty('field');
    expect(error.details).toHaveProperty('receivedType');
    expect(error.details).toHaveProperty('remedy');
  });
});

describe('CLI grammar ^[1-9][0-9]*(KiB|MiB|GiB)?$', () => {
  it.each([
    ['jsonlRecordBytes=128MiB', 'jsonlRecordBytes', 128 * MiB],
    ['jsonlSourceBytes=8GiB', 'jsonlSourceBytes', 8 * GiB],
    ['sqliteValueBytes=512KiB', 'sqliteValueBytes', 512 * 1024],
    ['sqlitePageBytes=1048576', 'sqlitePageBytes', MiB],
    ['jsonlRecordCount=5', 'jsonlRecordCount', 5],
    ['zipCompressionRatio=1000', 'zipCompressionRatio', 1000],
    ['captureInputFiles=20000', 'captureInputFiles', 20_000],
  ])('accepts %s', (option, field, value) => {
    expect(parseSourceLimitOptions([option])).toEqual({ [field]: value });
  });

  it.each([
    'jsonlRecordBytes=1.5MiB',
    'jsonlRecordBytes=+5',
    'jsonlRecordBytes=0',
    'jsonlRecordBytes=1e3',
    'jsonlRecordBytes= 5',
    'jsonlRecordBytes=5 ',
    'jsonlRecordBytes=5KB',
    'jsonlRecordBytes=5kib',
    'jsonlRecordBytes=05',
    'jsonlRecordBytes=-5',
    'jsonlRecordBytes=',
    'jsonlRecordBytes',
    'jsonlRecordCount=5KiB',
    'sqlitePageRows=1MiB',
    'zipCompressionRatio=2KiB',
    'captureInputFiles=1KiB',
    'nosuchField=5',
    'jsonlSourceBytes=9999999GiB',
  ])('rejects %s', (option) => {
    configError(() => parseSourceLimitOptions([option]));
  });

  it('rejects repeating the same field but allows different fields', () => {
    expect(parseSourceLimitOptions(['jsonlRecordBytes=1KiB', 'jsonlSourceBytes=2KiB'])).toEqual({
      jsonlRecordBytes: 1024,
      jsonlSourceBytes: 2048,
    });
    const error = configError(() =>
      parseSourceLimitOptions(['jsonlRecordBytes=1KiB', 'jsonlRecordBytes=2KiB']),
    );
    expect(error.details.constraint).toBe('field given more than once');
  });

  it('validates ordering on the final map after CLI parsing', () => {
    configError(() =>
      resolveReadLimits(parseSourceLimitOptions(['jsonlRecordBytes=2GiB', 'jsonlSourceBytes=1GiB'])),
    );
  });
});
