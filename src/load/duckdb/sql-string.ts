/** A SQL string literal for DuckDB statements that take no parameters (COPY targets, SET values). */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** A DuckDB list literal of SQL strings. */
export function sqlList(values: readonly string[]): string {
  return `[${values.map(sqlString).join(', ')}]`;
}
