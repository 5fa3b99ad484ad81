/**
 * Which carriers a session view's data came from, for the backup replace rule: only instances
 * that supplied data (contributed or equivalent replicas) count, never omitted or failed ones.
 */
import type { RowProvenanceRow, SourceInstanceRow } from '../../schemas/tables.js';
import { sha256Hex } from '../shared/json/canonical-json.js';

export const DATA_STATES = ['contributed', 'equivalent-replica'] as const;

/** True when the view has data and every data-supplying instance came from a backup archive. */
export function isBackupOnly(instances: readonly SourceInstanceRow[]): boolean {
  const supplying = instances.filter((i) => (DATA_STATES as readonly string[]).includes(i.state));
  return supplying.length > 0 && supplying.every((i) => i.carrier === 'backup');
}

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
