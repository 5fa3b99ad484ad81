/**
 * `@duckdb/node-api`, loaded with `require`. An ESM `import` of this CommonJS package makes Node lex
 * every file of it for export names before evaluating it, which cost ~0.2 s of CPU in every run.
 */
import { createRequire } from 'node:module';
import type * as DuckDbApi from '@duckdb/node-api';

const api = createRequire(import.meta.url)('@duckdb/node-api') as typeof DuckDbApi;

export const { DuckDBInstance, DuckDBTimestampValue, DuckDBTypeId } = api;
export type DuckDBInstance = DuckDbApi.DuckDBInstance;
export type DuckDBTypeId = DuckDbApi.DuckDBTypeId;
