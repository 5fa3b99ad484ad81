/**
 * The damaged files of the published state are neither linked, copied nor read: a damaged content
 * file sets its bucket aside in every content table (a session's rows stay together) to be rebuilt
 * from the sources, a damaged ledger table restarts, a damaged diagnostics partition is left out.
 */
import { LEDGER_TABLES, sourcesTable } from '../../../schemas/ledger-tables.js';
import { CONTENT_TABLES } from '../../../schemas/tables.js';
import { type Diagnostic, diagnostic } from '../../shared/diagnostic.js';
import type { DatasetManifest, ManifestTable } from './dataset-manifest.js';
import type { DamagedFile } from './state-integrity.js';

const CONTENT = new Set<string>(CONTENT_TABLES.map((t) => t.name));
const LEDGER = new Set<string>(LEDGER_TABLES.map((t) => t.name));

export interface SetAside {
  /** The published manifest without the set-aside files: what the run may read, link and copy. */
  sound: DatasetManifest;
  /** Buckets the run rewrites from the sources whether or not a staged session falls in them. */
  rebuildBuckets: ReadonlySet<string>;
  diagnostics: Diagnostic[];
}

export function setAsideDamage(
  manifest: DatasetManifest,
  damaged: readonly DamagedFile[],
  sessionsNotInSources: (bucket: string) => number | null,
): SetAside {
  const rebuildBuckets = new Set(
    damaged.filter((d) => CONTENT.has(d.table) && d.partition !== null).map((d) => d.partition!),
  );
  const restartedLedger = new Set(damaged.filter((d) => LEDGER.has(d.table)).map((d) => d.table));
  // Without its fingerprints the ledger vouches for no source, so `--since-last` reads every
  // source again and the rebuilt buckets get every session the sources hold.
  if (rebuildBuckets.size > 0 || restartedLedger.size > 0) restartedLedger.add(sourcesTable.name);
  const kept = (table: string, partition: string | null): boolean => {
    if (CONTENT.has(table)) return !rebuildBuckets.has(partition ?? '');
    if (LEDGER.has(table)) return !restartedLedger.has(table);
    return !damaged.some((d) => d.table === table && d.partition === partition);
  };
  const tables: Record<string, ManifestTable> = {};
  for (const [name, table] of Object.entries(manifest.tables))
    tables[name] = { ...table, files: table.files.filter((f) => kept(name, f.partition)) };
  const diagnostics = damaged.map(({ table, partition, damage }) =>
    diagnostic(
      'DATASET_FILE_SET_ASIDE',
      'A damaged data file of the published Parquet state was set aside',
      CONTENT.has(table)
        ? {
            table,
            partition,
            damage,
            action: 'rebuilt-from-sources' as const,
            sessionsNotInSources: sessionsNotInSources(partition ?? ''),
          }
        : { table, partition, damage, action: LEDGER.has(table) ? 'ledger-restarted' : 'left-out' },
    ),
  );
  return { sound: { ...manifest, tables }, rebuildBuckets, diagnostics };
}
