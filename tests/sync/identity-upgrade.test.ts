/**
 * A schema version 2 warehouse with the old build's identities (Store calls keyed by their call ID,
 * an undashed compact session): the next run, even `--since-last`, converges on a fresh load,
 * replaces only the affected sessions once and leaves no old identity behind.
 */
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildIdentityCorpus,
  IDENTITY_IDS as IDS,
  type IdentityCorpus,
} from '../../fixtures/store/identity-corpus.js';
import { withReadOnlyWarehouse } from '../../src/load/duckdb/read-only-query.js';
import { verifyWarehouse } from '../../src/load/duckdb/verify-warehouse.js';
import type { RunSummary } from '../../src/sync/run-state.js';
import { queryRows } from '../helpers/query-warehouse.js';
import { runCli, tempDir } from '../helpers/run-cli.js';
import { archivedStates, runInProcess } from '../helpers/sync-convergence.js';

const load = (corpus: IdentityCorpus, warehouse: string, sinceLast: boolean): Promise<RunSummary> =>
  runInProcess(corpus, warehouse, sinceLast);

async function sql(path: string, statements: readonly string[]): Promise<void> {
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  for (const statement of statements) await connection.run(statement);
  connection.closeSync();
  instance.closeSync();
}

const TABLES_BY_SESSION = [
  'sessions',
  'messages',
  'tool_calls',
  'source_instances',
  'row_provenance',
  'file_edits',
  'usage',
  'etl_session_sources',
  'etl_session_state',
];

/** What the build before tool identity v1 of Store calls and re-dashed compact sessions stored. */
function oldBuildRows(): string[] {
  return [
    // Store calls were keyed by their Store call ID (the appended merge call kept it too).
    `UPDATE tool_calls SET tool_id = native_call_id, tool_id_origin = 'source-native'
      WHERE tool_id LIKE 'tool:v1:store:v1:db:%'`,
    'ALTER TABLE tool_calls DROP COLUMN native_call_id',
    // Version 2 had no membership content digests.
    'ALTER TABLE etl_session_sources DROP COLUMN content_fingerprint',
    // The compact directory's session was stored under the undashed name.
    ...TABLES_BY_SESSION.map(
      (table) => `UPDATE ${table} SET session_id = '${IDS.compactDir}' WHERE session_id = '${IDS.compact}'`,
    ),
    "UPDATE etl_meta SET value = '2' WHERE key = 'schema_version'",
  ];
}

describe('identity upgrade convergence', () => {
  let corpus: IdentityCorpus;
  let dir: string;
  let upgraded: string;
  let fresh: string;
  let migrationRemedy: string;
  let first: RunSummary;
  let second: RunSummary;
  beforeAll(async () => {
    dir = tempDir('etl-identity-upgrade-');
    corpus = buildIdentityCorpus(join(dir, 'sources'));
    upgraded = join(dir, 'upgraded.duckdb');
    fresh = join(dir, 'fresh.duckdb');
    await load(corpus, upgraded, false);
    await sql(upgraded, oldBuildRows());
    const status = runCli(['status', '--json', '--target', `duckdb:${upgraded}`]);
    migrationRemedy = JSON.parse(status.stderr).error.details.remedy;
    first = await load(corpus, upgraded, true);
    second = await load(corpus, upgraded, true);
    await load(corpus, fresh, false);
  }, 240_000);

  it('etl status on the old warehouse says the next run converges stored identities', () => {
    expect(migrationRemedy).toMatch(/identities converge/);
  });

  it('the next --since-last run reads every source again and converges on a fresh load', async () => {
    expect(first.counts.sourcesSkippedUnchanged).toBe(0);
    const [kept, full] = await archivedStates([upgraded, fresh]);
    expect(kept).toEqual(full);
  });

  it('affected sessions are replaced once, nothing else is rewritten, and a repeat writes nothing', () => {
    // Store tool IDs (Store-only DB, merge) or a newly kept native call ID (transcript) changed:
    // replaced. The re-dashed compact session is new. The uppercase compact session has no call.
    expect(first.counts).toMatchObject({ sessionsReplaced: 3, sessionsInserted: 1, sessionsUnchanged: 1 });
    expect(second.counts).toMatchObject({ sessionsReplaced: 0, sessionsInserted: 0, sessionsUnchanged: 0 });
  });

  it('no old identity is left behind: no undashed compact session, no Store call keyed by its Store call ID', async () => {
    for (const table of TABLES_BY_SESSION)
      expect(
        await queryRows(upgraded, `SELECT session_id FROM ${table} WHERE session_id = '${IDS.compactDir}'`),
        table,
      ).toEqual([]);
    expect(
      await queryRows(upgraded, "SELECT tool_id FROM tool_calls WHERE tool_id_origin = 'source-native'"),
    ).toEqual([]);
    expect(await withReadOnlyWarehouse(upgraded, verifyWarehouse)).toMatchObject({ problems: [] });
  });
});
