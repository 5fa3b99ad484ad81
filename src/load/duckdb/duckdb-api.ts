/** The runtime values of `@duckdb/node-api`, required rather than imported (see require-commonjs). */
import type * as DuckDbApi from '@duckdb/node-api';
import { requireCommonJs } from '../../shared/require-commonjs.js';

const api = requireCommonJs('@duckdb/node-api') as typeof DuckDbApi;

export const { DuckDBInstance, DuckDBTimestampValue, DuckDBTypeId, listValue } = api;
export type DuckDBInstance = DuckDbApi.DuckDBInstance;
export type DuckDBTypeId = DuckDbApi.DuckDBTypeId;
