/**
 * Which carriers a session view's data came from, for the backup replace rule: only instances
 * that supplied data (contributed or equivalent replicas) count, never omitted or failed ones.
 */
import type { SourceInstanceRow } from '../../schemas/tables.js';

export const DATA_STATES = ['contributed', 'equivalent-replica'] as const;

/** True when the view has data and every data-supplying instance came from a backup archive. */
export function isBackupOnly(instances: readonly SourceInstanceRow[]): boolean {
  const supplying = instances.filter((i) => (DATA_STATES as readonly string[]).includes(i.state));
  return supplying.length > 0 && supplying.every((i) => i.carrier === 'backup');
}

/** SQL predicate over `source_instances` columns: a data-supplying instance from a non-backup carrier. */
export const LIVE_CONTRIBUTION_SQL = `carrier <> 'backup' AND state IN (${DATA_STATES.map((s) => `'${s}'`).join(', ')})`;

/**
 * Where each instance of a view was read from, in instance order: what a relocated root changes
 * while the digest stays. `PROVENANCE_KEY_SQL` is the same text aggregated over stored rows.
 */
export function provenanceKey(instances: readonly SourceInstanceRow[]): string {
  return instances.map((i) => `${i.instance_ordinal}:${i.occurrence_ref}:${i.carrier}`).join(',');
}

export const PROVENANCE_KEY_SQL = `coalesce(string_agg(instance_ordinal || ':' || occurrence_ref || ':' || carrier, ',' ORDER BY instance_ordinal), '')`;
