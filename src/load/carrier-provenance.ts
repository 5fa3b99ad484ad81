/**
 * Which carriers and source roles a session view's data came from, for the backup and capture
 * replace rules: only instances that supplied data (contributed or equivalent replicas) count,
 * never omitted, failed or superseded ones.
 */
import type { RowProvenanceRow, SourceInstanceRow } from '../../schemas/tables.js';
import { sha256Hex } from '../shared/json/canonical-json.js';

export const DATA_STATES = ['contributed', 'equivalent-replica'] as const;

/** True when the view has data and every data-supplying instance came from a backup archive. */
export function isBackupOnly(instances: readonly SourceInstanceRow[]): boolean {
  const data = supplying(instances);
  return data.length > 0 && data.every((i) => i.carrier === 'backup');
}

/** Cursor's own data: the roles a capture never replaces once they back a complete session. */
export const CURSOR_ROLES = ['composer', 'store'] as const;

function supplying(instances: readonly SourceInstanceRow[]): SourceInstanceRow[] {
  return instances.filter((i) => (DATA_STATES as readonly string[]).includes(i.state));
}

/** True when the view has data and every data-supplying instance is a capture (no Cursor data). */
export function isCaptureBacked(instances: readonly SourceInstanceRow[]): boolean {
  const data = supplying(instances);
  return data.length > 0 && data.every((i) => !(CURSOR_ROLES as readonly string[]).includes(i.source_role));
}

/** SQL predicate over `source_instances` columns: a data-supplying instance of Cursor's own data. */
export const CURSOR_CONTRIBUTION_SQL = `source_role IN (${CURSOR_ROLES.map((r) => `'${r}'`).join(', ')}) AND state IN (${DATA_STATES.map((s) => `'${s}'`).join(', ')})`;

/** SQL predicate over `source_instances` columns: a data-supplying instance from a non-backup carrier. */
export const LIVE_CONTRIBUTION_SQL = `carrier <> 'backup' AND state IN (${DATA_STATES.map((s) => `'${s}'`).join(', ')})`;

/**
 * Where each instance of a view was read from, in instance order, and a hash of where each of its
 * rows was read: what a relocated root or a rewritten transcript changes while the digest stays.
 * `PROVENANCE_KEY_SQL` and `ROW_PROVENANCE_KEY_SQL` are the same text aggregated over stored rows.
 */
export function provenanceKey(
  instances: readonly SourceInstanceRow[],
  rows: readonly RowProvenanceRow[],
): string {
  const places = instances.map((i) => `${i.instance_ordinal}:${i.occurrence_ref}:${i.carrier}`).join(',');
  return `${places}|${rowProvenanceKey(rows)}`;
}

/** The two halves of a `provenanceKey`: where the instances were read, and the hash of the row locators. */
export function splitProvenanceKey(key: string): { instances: string; rows: string } {
  const cut = key.lastIndexOf('|');
  return { instances: key.slice(0, cut), rows: key.slice(cut + 1) };
}

/** SHA-256 over the sorted SHA-256s of the rows' text (hex sorts alike in JS and DuckDB). */
function rowProvenanceKey(rows: readonly RowProvenanceRow[]): string {
  const hashes = rows
    .map((r) =>
      sha256Hex(
        [
          r.row_kind,
          r.row_id,
          r.instance_ordinal,
          r.locator,
          r.frame_index ?? '',
          r.source_frame_index ?? '',
          r.chosen,
        ].join(String.fromCharCode(0x1f)),
      ),
    )
    .sort();
  return sha256Hex(hashes.join(','));
}

export const PROVENANCE_KEY_SQL = `coalesce(string_agg(instance_ordinal || ':' || occurrence_ref || ':' || carrier, ',' ORDER BY instance_ordinal), '')`;

const ROW_TEXT_SQL = [
  'row_kind',
  'row_id',
  'instance_ordinal::VARCHAR',
  'locator',
  "coalesce(frame_index::VARCHAR, '')",
  "coalesce(source_frame_index::VARCHAR, '')",
  'chosen::VARCHAR',
].join(' || chr(31) || ');

/** The row half of `provenanceKey`, aggregated over `row_provenance` rows. */
export const ROW_PROVENANCE_KEY_SQL = `sha256(coalesce(string_agg(sha256(${ROW_TEXT_SQL}), ',' ORDER BY sha256(${ROW_TEXT_SQL})), ''))`;

/** The row half of `provenanceKey` for a session with no `row_provenance` rows. */
export const NO_ROW_PROVENANCE_KEY = rowProvenanceKey([]);
