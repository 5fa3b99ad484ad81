import { cpSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { completeInFolder } from '../../fixtures/capture/cli-captures.js';
import { writeCapture } from '../../fixtures/capture/write-capture.js';
import { buildStoreMatrix } from '../../fixtures/store/store-matrix.js';
import { runCli, tempDir } from '../helpers/run-cli.js';

interface RunOutput {
  run: { counts: Record<string, number> };
}

const CONTENT = {
  sessions: 'select * from sessions order by session_id',
  messages: 'select * from messages order by session_id, ordinal',
  tool_calls: 'select * from tool_calls order by session_id, message_id, tool_ordinal',
  source_instances: 'select * from source_instances order by session_id, instance_ordinal',
};

let base: string;
let origin: string;

/** Where a copy of the whole data root is read from: several spellings of another location. */
const RELOCATIONS: { name: string; place: (copy: string) => string }[] = [
  { name: 'a copy under a folder with a space and an accent', place: (copy) => copy },
  {
    name: 'a symlinked copy spelled with `//` and `./`',
    place: (copy) => {
      const link = `${copy}-link`;
      symlinkSync(copy, link);
      return `${link}//./`;
    },
  },
];

function load(root: string, target: string, ...flags: string[]): RunOutput {
  const result = runCli([
    'run',
    '--json',
    '--cursor-user-dir',
    join(root, 'User'),
    '--cursor-store-root',
    join(root, 'store'),
    '--input',
    join(root, 'captures'),
    '--target',
    `duckdb:${target}`,
    ...flags,
  ]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as RunOutput;
}

function rows(target: string, sql: string): Record<string, unknown>[] {
  return JSON.parse(runCli(['query', '--json', '--target', `duckdb:${target}`, sql]).stdout).rows;
}

beforeAll(() => {
  base = tempDir('etl-relocate-');
  origin = join(base, 'origin');
  buildStoreMatrix(join(origin, 'store'), join(origin, 'User'));
  writeCapture(join(origin, 'captures'), 'run.ndjson', completeInFolder('sess-relocated', '/home/dev/app'));
});

describe('"Relocation writes nothing": physical locations are provenance, not content', {
  timeout: 120_000,
}, () => {
  it.each(RELOCATIONS)(
    '$name keeps every digest, replaces nothing, updates provenance in place',
    ({ name, place }) => {
      const dir = join(base, name.replaceAll(/\W+/g, '-'));
      mkdirSync(dir);
      const warehouse = join(dir, 'w.duckdb');
      load(origin, warehouse);
      const before = {
        digests: rows(warehouse, 'select session_id, view_digest from sessions order by 1'),
        feed: rows(warehouse, 'select session_id, last_changed_run from etl_session_state order by 1'),
        refs: rows(warehouse, 'select occurrence_ref from source_instances order by 1'),
      };
      expect(before.digests.length).toBeGreaterThan(3);

      const copy = join(dir, 'Relocated copy é');
      cpSync(origin, copy, { recursive: true });
      const relocated = place(copy);
      for (const flags of [['--since-last'], []]) {
        const counts = load(relocated, warehouse, ...flags).run.counts;
        expect(counts).toMatchObject({ sessionsInserted: 0, sessionsReplaced: 0 });
        expect(counts.sessionsUnchanged).toBe(before.digests.length);
      }
      expect(rows(warehouse, 'select session_id, view_digest from sessions order by 1')).toEqual(
        before.digests,
      );
      // A change feed over the ledger sees nothing: no session changed in the relocated runs.
      expect(
        rows(warehouse, 'select session_id, last_changed_run from etl_session_state order by 1'),
      ).toEqual(before.feed);
      expect(rows(warehouse, 'select occurrence_ref from source_instances order by 1')).not.toEqual(
        before.refs,
      );

      // Provenance now says where the data was read from: the rows equal a fresh load of the copy.
      const fresh = join(dir, 'fresh.duckdb');
      load(relocated, fresh);
      for (const sql of Object.values(CONTENT)) expect(rows(warehouse, sql)).toEqual(rows(fresh, sql));
      expect(runCli(['verify', '--json', '--target', `duckdb:${warehouse}`]).code).toBe(0);
    },
  );
});
