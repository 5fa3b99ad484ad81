/**
 * Which carriers and source roles a session view's data came from, for the backup and capture
 * replace rules: only instances that supplied data (contributed or equivalent replicas) count,
 * never omitted, failed or superseded ones.
 */
import type { SourceInstanceRow } from '../../schemas/tables.js';

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
 * Where each instance of a view was read from, in instance order: what a relocated root changes
 * while the digest stays. `PROVENANCE_KEY_SQL` is the same text aggregated over stored rows.
 */
export function provenanceKey(instances: readonly SourceInstanceRow[]): string {
  return instances.map((i) => `${i.instance_ordinal}:${i.occurrence_ref}:${i.carrier}`).join(',');
}

export const PROVENANCE_KEY_SQL = `coalesce(string_agg(instance_ordinal || ':' || occurrence_ref || ':' || carrier, ',' ORDER BY instance_ordinal), '')`;
