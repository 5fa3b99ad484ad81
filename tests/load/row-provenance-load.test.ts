/**
 * Row provenance at the load: never part of the digest that decides replacement, rewritten in place
 * when only the records moved, and filled for a pre-provenance warehouse without replacing anything.
 */
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { withReadOnlyWarehouse } from '../../src/load/duckdb/read-only-query.js';
import { verifyWarehouse } from '../../src/load/duckdb/verify-warehouse.js';
import { targetOpener } from '../../src/load/open-target.js';
import type { LoadResult } from '../../src/load/target.js';
import { emptyCounts } from '../../src/sync/run-counts.js';
import type { NormalizedSession } from '../../src/transform/normalized-session.js';
import { stateDataFiles } from '../helpers/dataset-files.js';
import { rowsOf } from '../helpers/query-warehouse.js';
import { tempDir } from '../helpers/run-cli.js';
import { sampleSessions } from '../helpers/sample-sessions.js';

let runs = 0;

async function loadInto(kind: 'duckdb' | 'parquet', path: string, sessions: NormalizedSession[]) {
  const target = await (await targetOpener({ kind, path }))();
  const runId = `r${++runs}`;
  try {
    await target.beginRun({ runId, startedAtMs: runs, mode: 'full', optionsDigest: 'o' });
    const results = await target.loadBatch(sessions);
    await target.finishRun(runId, 'committed', runs, emptyCounts());
    return results;
  } finally {
    await target.close();
  }
}

const LOCATORS = 'SELECT row_kind, row_id, locator FROM row_provenance ORDER BY ALL';
const CONTENT = 'SELECT session_id, view_digest FROM sessions ORDER BY session_id';

/** The same sessions read from records that moved: every locator changes, no content does. */
function moved(sessions: NormalizedSession[]): NormalizedSession[] {
  return sessions.map((s) => ({
    ...s,
    rowProvenance: s.rowProvenance.map((r) => ({ ...r, locator: `${r.locator}~moved` })),
  }));
}

const actions = (results: LoadResult[]) => results.map((r) => r.action);

describe('row provenance at the load', () => {
  let sessions: NormalizedSession[];
  beforeAll(async () => {
    sessions = await sampleSessions();
    expect(sessions.every((s) => s.rowProvenance.length > 0)).toBe(true);
  });

  for (const kind of ['duckdb', 'parquet'] as const) {
    it(`${kind}: moved locators update provenance without counting as a content change`, async () => {
      const path = join(tempDir(), kind === 'duckdb' ? 'w.duckdb' : 'dataset');
      expect(actions(await loadInto(kind, path, sessions))).toEqual(sessions.map(() => 'insert'));
      const content = await rowsOf(kind, path, CONTENT);
      const before = await rowsOf(kind, path, LOCATORS);
      expect(before).toHaveLength(sessions.reduce((n, s) => n + s.rowProvenance.length, 0));
      const files = kind === 'parquet' ? stateDataFiles(path) : null;
      const relocated = moved(sessions);
      expect(relocated.map((s) => s.session.view_digest)).toEqual(sessions.map((s) => s.session.view_digest));
      expect(actions(await loadInto(kind, path, relocated))).toEqual(sessions.map(() => 'unchanged'));
      expect(await rowsOf(kind, path, CONTENT)).toEqual(content);
      if (files !== null) {
        // Only the row locators moved: every file but row_provenance's (and the ledger's) is shared.
        const rewritten = [...stateDataFiles(path)]
          .filter(([key, file]) => files.get(key)?.inode !== file.inode && !key.startsWith('etl_'))
          .map(([key]) => key.split('/')[0]);
        expect([...new Set(rewritten)]).toEqual(['row_provenance']);
      }
      const after = await rowsOf(kind, path, LOCATORS);
      expect(after.map((r) => r.locator)).toEqual(before.map((r) => `${r.locator}~moved`));
      // Identical input writes nothing more.
      expect(actions(await loadInto(kind, path, relocated))).toEqual(sessions.map(() => 'unchanged'));
      expect(await rowsOf(kind, path, LOCATORS)).toEqual(after);
    }, 120_000);
  }

  it('a version 2 warehouse (no row_provenance) gets the table from the migration and its rows from the next run, nothing replaced', async () => {
    const path = join(tempDir(), 'w.duckdb');
    await loadInto('duckdb', path, sessions);
    const content = await rowsOf('duckdb', path, CONTENT);
    const messages = await rowsOf('duckdb', path, 'SELECT * FROM messages ORDER BY session_id, ordinal');
    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    await connection.run('DROP TABLE row_provenance');
    await connection.run("UPDATE etl_meta SET value = '2' WHERE key = 'schema_version'");
    connection.closeSync();
    instance.closeSync();
    expect(actions(await loadInto('duckdb', path, sessions))).toEqual(sessions.map(() => 'unchanged'));
    expect(await rowsOf('duckdb', path, CONTENT)).toEqual(content);
    expect(await rowsOf('duckdb', path, 'SELECT * FROM messages ORDER BY session_id, ordinal')).toEqual(
      messages,
    );
    const filled = await rowsOf('duckdb', path, 'SELECT count(*)::INTEGER AS n FROM row_provenance');
    expect(filled[0]!.n).toBe(sessions.reduce((n, s) => n + s.rowProvenance.length, 0));
    // These loads carry no ledger batch: only the ledger check has something to say.
    const { problems } = await withReadOnlyWarehouse(path, verifyWarehouse);
    expect(problems.filter((p) => p.check !== 'ledger-missing')).toEqual([]);
  }, 120_000);
});
