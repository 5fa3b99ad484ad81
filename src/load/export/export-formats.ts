/** The `etl export` formats, in a module of their own so the CLI can list them without loading the writers. */
export const EXPORT_FORMATS = ['parquet', 'arrow', 'jsonl', 'archive-jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
