/**
 * A tiny DSL: one declaration per column yields the zod row schema (`row-schema.ts`), the DuckDB
 * DDL, the JSON Schema and the column documentation, so the four can never drift apart. zod stays out
 * of this module so a run does not load it.
 */
export type ColumnKind = 'text' | 'int' | 'bigint' | 'double' | 'bool' | 'timestamp' | 'json';

const DUCK_TYPE: Record<ColumnKind, string> = {
  text: 'VARCHAR',
  int: 'INTEGER',
  bigint: 'BIGINT',
  double: 'DOUBLE',
  bool: 'BOOLEAN',
  timestamp: 'TIMESTAMPTZ',
  json: 'JSON',
};

export interface ColumnSpec {
  kind: ColumnKind;
  nullable: boolean;
  description: string;
  values?: readonly [string, ...string[]];
}

export function column<K extends ColumnKind>(
  kind: K,
  description: string,
): { kind: K; nullable: false; description: string } {
  return { kind, nullable: false, description };
}
export function nullable<K extends ColumnKind>(
  kind: K,
  description: string,
): { kind: K; nullable: true; description: string } {
  return { kind, nullable: true, description };
}
export function oneOf<const V extends readonly [string, ...string[]], N extends boolean = false>(
  values: V,
  description: string,
  isNullable?: N,
): { kind: 'text'; nullable: N; description: string; values: V } {
  return { kind: 'text', nullable: (isNullable ?? false) as N, description, values };
}

type ColumnValue<S extends ColumnSpec> = S extends { values: readonly (infer V)[] }
  ? V
  : S['kind'] extends 'text' | 'json'
    ? string
    : S['kind'] extends 'bool'
      ? boolean
      : number;

export type RowOf<C extends Record<string, ColumnSpec>> = {
  -readonly [K in keyof C]: C[K]['nullable'] extends true ? ColumnValue<C[K]> | null : ColumnValue<C[K]>;
};

export interface TableDefinition<C extends Record<string, ColumnSpec>> {
  name: string;
  description: string;
  columns: C;
  columnNames: (keyof C & string)[];
}

export function defineTable<const C extends Record<string, ColumnSpec>>(
  name: string,
  description: string,
  columns: C,
): TableDefinition<C> {
  return {
    name,
    description,
    columns,
    columnNames: Object.keys(columns) as (keyof C & string)[],
  };
}

export function duckDbType(spec: ColumnSpec): string {
  return DUCK_TYPE[spec.kind];
}

export function createTableSql(table: TableDefinition<Record<string, ColumnSpec>>): string {
  const lines = Object.entries(table.columns).map(
    ([key, spec]) => `  ${key} ${duckDbType(spec)}${spec.nullable ? '' : ' NOT NULL'}`,
  );
  return `CREATE TABLE IF NOT EXISTS ${table.name} (\n${lines.join(',\n')}\n);`;
}
