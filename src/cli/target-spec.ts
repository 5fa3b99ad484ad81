/** `--target duckdb:PATH | parquet:DIR` (a bare path means DuckDB). */
import { resolve } from 'node:path';
import { UsageError } from '../shared/errors.js';
import { defaultWarehousePath } from './default-paths.js';

export interface TargetSpec {
  kind: 'duckdb' | 'parquet';
  path: string;
}

export function parseTargetSpec(value: string | undefined): TargetSpec {
  if (value === undefined || value.length === 0) return { kind: 'duckdb', path: defaultWarehousePath() };
  const match = /^(duckdb|parquet):(.+)$/.exec(value);
  if (match) return { kind: match[1] as TargetSpec['kind'], path: resolve(match[2]!) };
  if (/^[a-z]+:/.test(value) && !/^[a-zA-Z]:[\\/]/.test(value)) {
    throw new UsageError('TARGET_INVALID', 'Unknown target kind; use duckdb:PATH or parquet:DIR', {
      received: value.slice(0, value.indexOf(':')),
    });
  }
  return { kind: 'duckdb', path: resolve(value) };
}
