/**
 * The DuckDB storage format a run writes a new warehouse in. DuckDB's default for new files is
 * the v0.10.2-compatible format, which stores long strings uncompressed: on the 1x benchmark corpus
 * `messages.content` sat in 962 uncompressed segments. From v1.3.0 every string column is
 * dictionary + FSST compressed, so the file shrank 629 -> 281 MB (5x: 3.11 -> 1.39 GB), full loads took
 * 12.4 -> 11.1 s (5x: 68-77 -> 57 s) and a `LIKE` scan of `content` 173 -> 86 ms, at the same peak RSS.
 * v1.4.0 and v1.5.0 measured the same, so the oldest format with the gain keeps the warehouse readable
 * by the most DuckDB clients: any DuckDB from 1.3.0 on (docs/operations.md).
 */
export const NEW_WAREHOUSE_STORAGE_VERSION = 'v1.3.0';

/**
 * Options of the writer's `ATTACH`. Only a file this run creates gets the format: DuckDB rewrites an
 * existing file's header when `ATTACH` names a newer format, so a warehouse created by an older build
 * keeps its format (and every client that could read it) until it is rebuilt.
 */
export function storageVersionOption(creating: boolean): string {
  return creating ? `, STORAGE_VERSION '${NEW_WAREHOUSE_STORAGE_VERSION}'` : '';
}
