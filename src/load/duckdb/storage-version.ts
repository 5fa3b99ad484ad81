/**
 * The DuckDB storage format of a new warehouse: v1.3.0 compresses every string column (dictionary +
 * FSST), where the default format stores long strings uncompressed. The oldest format with the gain
 * keeps the file readable by DuckDB 1.3.0 and later.
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
