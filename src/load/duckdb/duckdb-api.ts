/**
 * The runtime values of `@duckdb/node-api`, imported so that the CLI bundle carries the package's
 * ~120 CommonJS files as one chunk (build/bundle-cli.ts): Node then loads it in ~25 ms instead of
 * ~45 ms, and only its native part, `@duckdb/node-bindings`, is required at run time.
 */
export {
  DuckDBArrayValue,
  DuckDBInstance,
  DuckDBListValue,
  DuckDBMapValue,
  DuckDBResultReader,
  DuckDBStructValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  DuckDBTypeId,
  listValue,
  StatementType,
} from '@duckdb/node-api';
