/** A SQL string literal for DuckDB statements that take no parameters (COPY targets, SET values). */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
