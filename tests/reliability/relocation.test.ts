/**
 * "Relocation writes nothing" on both targets, through the built CLI: the same Cursor data read
 * from another place (moved, copied with or without its times, spelled through a symlink) keeps
 * every digest, replaces nothing, and only rewrites provenance; Parquet content files stay linked.
 */
import { cpSync, mkdirSync, renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { completeInFolder } from '../../fixtures/capture/cli-captures.js';
import { writeCapture } from '../../fixtures/capture/write-capture.js';
import { buildStoreMatrix } from '../../fixtures/store/store-matrix.js';
import { stateDataFiles } from '../helpers/dataset-files.js';
import { runCli, tempDir } from '../helpers/run-cli.js';

interface RunOutput {
  run: { counts: Record<string, number> };
}

type Kind = 'duckdb' | 'parquet';

const CONTENT = {
  sessions: 'select * from sessions order by session_id',
  messages: 'select * from messages order by session_id, ordinal',
  tool_calls: 'select * from tool_calls order by session_id, message_id, tool_ordinal',
};
const PROVENANCE = {
  source_instances: 'select * from source_instances order by session_id, instance_ordinal',
  row_provenance: 'select * from row_provenance order by all',
};
/** Parquet tables whose files a relocation may rewrite: provenance, the ledger, the run's diagnostics. */
const REWRITABLE = /^(source_instances|row_provenance|diagnostics|etl_[a-z_]+)(\/|$)/;

let base: string;
let origin: string;

/**
 * Where the data is first loaded from (a private copy of `origin`), and where it is read from next.
 * Each builds the second place its own way.
 */
const RELOCATIONS: { name: string; relocate: (first: string) => string }[] = [
  {
    name: 'the root directory moved',
    relocate: (first) => {
      const moved = join(first, '..', 'moved root');
      renameSync(first, moved);
      return moved;
    },
  },
  {
    name: 'a copy with preserved mtimes',
    relocate: (first) => {
      const copy = join(first, '..', 'restored copy');
      cpSync(first, copy, { recursive: true, preserveTimestamps: true });
      return copy;
    },
  },
  {
    name: 'a fresh copy under a folder with a space and an accent',
    relocate: (first) => {
      const copy = join(first, '..', 'Relocated copy é');
      cpSync(first, copy, { recursive: true });
      return copy;
    },
  },
  {
    name: 'a copy spelled through a symlink with `//` and `./`',
    relocate: (first) => {
      const copy = join(first, '..', 'linked copy');
      cpSync(first, copy, { recursive: true, preserveTimestamps: true });
      const link = join(first, '..', 'link');
      symlinkSync(copy, link);
      return `${link}//./`;
    },
  },
];

const targetOf = (kind: Kind, path: string): string => `${kind}:${path}`;

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
    target,
    ...flags,
  ]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as RunOutput;
}

function rows(target: string, sql: string): Record<string, unknown>[] {
  const result = runCli(['query', '--json', '--target', target, sql]);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout).rows;
}

beforeAll(() => {
  base = tempDir('etl-relocate-');
  origin = join(base, 'origin');
  buildStoreMatrix(join(origin, 'store'), join(origin, 'User'));
  writeCapture(join(origin, 'captures'), 'run.ndjson', completeInFolder('sess-relocated', '/home/dev/app'));
});

describe('"Relocation writes nothing": physical locations are provenance, not content', {
  timeout: 240_000,
}, () => {
  const cases = (['duckdb', 'parquet'] as const).flatMap((kind) =>
    RELOCATIONS.map((relocation) => ({ kind, ...relocation })),
  );
  it.each(cases)(
    '$kind: $name keeps every digest, replaces nothing, updates provenance in place',
    ({ kind, name, relocate }) => {
      const dir = join(base, `${kind}-${name.replaceAll(/\W+/g, '-')}`);
      mkdirSync(dir);
      const first = join(dir, 'first');
      cpSync(origin, first, { recursive: true, preserveTimestamps: true });
      const target = targetOf(kind, join(dir, kind === 'duckdb' ? 'w.duckdb' : 'dataset'));
      load(first, target);
      const before = {
        digests: rows(target, 'select session_id, view_digest from sessions order by 1'),
        feed: rows(target, 'select session_id, last_changed_run from etl_session_state order by 1'),
        refs: rows(target, 'select occurrence_ref from source_instances order by 1'),
        files: kind === 'parquet' ? stateDataFiles(join(dir, 'dataset')) : null,
      };
      expect(before.digests.length).toBeGreaterThan(3);

      const relocated = relocate(first);
      for (const flags of [['--since-last'], []]) {
        const counts = load(relocated, target, ...flags).run.counts;
        expect(counts).toMatchObject({ sessionsInserted: 0, sessionsReplaced: 0 });
        expect(counts.sessionsUnchanged).toBe(before.digests.length);
      }
      expect(rows(target, 'select session_id, view_digest from sessions order by 1')).toEqual(before.digests);
      // A change feed over the ledger sees nothing: no session changed in the relocated runs.
      expect(rows(target, 'select session_id, last_changed_run from etl_session_state order by 1')).toEqual(
        before.feed,
      );
      expect(rows(target, 'select occurrence_ref from source_instances order by 1')).not.toEqual(before.refs);

      if (before.files !== null) {
        // Content partitions are the same files (hard links of the first state's); only provenance,
        // the ledger and diagnostics were written.
        const after = stateDataFiles(join(dir, 'dataset'));
        const rewritten = [...after].filter(([key, file]) => before.files!.get(key)?.inode !== file.inode);
        expect(rewritten.map(([key]) => key).filter((key) => !REWRITABLE.test(key))).toEqual([]);
        expect(rewritten.some(([key]) => key.startsWith('source_instances/'))).toBe(true);
        for (const [key, file] of before.files)
          if (!REWRITABLE.test(key)) expect(after.get(key)).toEqual(file);
      }

      // Provenance now says where the data was read from: the rows equal a fresh load of the new place.
      const fresh = targetOf(kind, join(dir, kind === 'duckdb' ? 'fresh.duckdb' : 'fresh'));
      load(relocated, fresh);
      for (const sql of [...Object.values(CONTENT), ...Object.values(PROVENANCE)])
        expect(rows(target, sql)).toEqual(rows(fresh, sql));
      expect(runCli(['verify', '--json', '--target', target]).code).toBe(0);
    },
  );
});
