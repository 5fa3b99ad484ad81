import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSampleCorpus, SAMPLE_COMPOSERS } from '../../fixtures/sample/sample-corpus.js';
import { rewriteComposer } from '../helpers/mutate-composer.js';
import { faultAfter, runCli, tempDir } from '../helpers/run-cli.js';
import { contentChecksum, queryRows, runJson } from '../helpers/warehouse-cli.js';

// Each point is reached while loading the changed corpus; see docs/operations.md for the names.
const POINTS = [
  'session-hydrated:2',
  'batch-deleted:1',
  'batch-appended:1',
  'final-ledger-written:1',
  'batch-committed:1',
];

describe('SIGKILL at several points of a load (CURSOR_ETL_FAULT_AFTER)', () => {
  let userDir: string;
  let base: string;
  let cleanChecksum: string;
  let oldDigests: Map<string, string>;
  let newDigests: Map<string, string>;
  const digests = (target: string) =>
    new Map(
      queryRows(target, 'select session_id, view_digest from sessions').map((r) => [
        String(r.session_id),
        String(r.view_digest),
      ]),
    );

  beforeAll(() => {
    const root = tempDir();
    userDir = buildSampleCorpus(join(root, 'cursor')).userDir;
    base = join(root, 'base.duckdb');
    runJson(['--cursor-user-dir', userDir, '--target', `duckdb:${base}`]);
    oldDigests = digests(`duckdb:${base}`);
    // Two sessions change, so a crash can fall between their rows.
    for (const composer of [SAMPLE_COMPOSERS[0]!, SAMPLE_COMPOSERS[2]!]) {
      rewriteComposer(join(userDir, 'globalStorage', 'state.vscdb'), {
        ...composer,
        bubbles: composer.bubbles.map((b) => ({ ...b, text: `${b.text} v2` })),
      });
    }
    const clean = `duckdb:${join(root, 'clean.duckdb')}`;
    runJson(['--cursor-user-dir', userDir, '--target', clean]);
    cleanChecksum = contentChecksum(clean);
    newDigests = digests(clean);
  }, 600_000);

  it.each(POINTS)(
    'killed at %s: the warehouse opens, verify passes, no session is mixed, status shows the interrupted run, the next run converges to the clean-run checksum',
    (point) => {
      const path = join(tempDir(), 'w.duckdb');
      copyFileSync(base, path);
      if (existsSync(`${base}.wal`)) copyFileSync(`${base}.wal`, `${path}.wal`);
      const target = `duckdb:${path}`;
      const killed = runCli(
        ['run', '--json', '--since-last', '--cursor-user-dir', userDir, '--target', target],
        faultAfter(point),
      );
      expect(killed.code).toBe(-1);
      expect(killed.stdout).toBe('');

      const verify = runCli(['verify', '--json', '--target', target]);
      expect(verify.code).toBe(0);
      for (const [id, digest] of digests(target)) {
        expect([oldDigests.get(id), newDigests.get(id)]).toContain(digest);
      }
      const status = JSON.parse(runCli(['status', '--json', '--target', target]).stdout) as {
        interruptedRuns: string[];
        runs: { status: string }[];
      };
      expect(status.interruptedRuns).toHaveLength(1);
      expect(status.runs[0]!.status).toBe('interrupted');

      const next = runJson(['--since-last', '--cursor-user-dir', userDir, '--target', target]);
      expect(next.status).toBe('committed');
      expect(contentChecksum(target)).toBe(cleanChecksum);
    },
    600_000,
  );
});
