import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { buildSampleCorpus, SAMPLE_COMPOSERS } from '../../../fixtures/sample/sample-corpus.js';
import { deleteComposer, dropFromWorkspaceIndex, rewriteComposer } from '../../helpers/mutate-composer.js';
import { faultAfter, runCli, tempDir } from '../../helpers/run-cli.js';
import { queryRows, runJson } from '../../helpers/warehouse-cli.js';

interface ChangeLine {
  format: string;
  change: 'inserted' | 'replaced' | 'absent';
  changedInRun: string;
  presentInSource: boolean;
  key: string;
  sessionId: string;
  viewDigest: string;
  messages?: { key: string }[];
}

interface ChangesSummary {
  consumer: string;
  fromSeq: number | null;
  toSeq: number;
  sessions: number;
  inserted: number;
  replaced: number;
  absent: number;
  message: string;
}

const readLines = (file: string): ChangeLine[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as ChangeLine);

describe.each(['duckdb', 'parquet'] as const)('etl export --changes on a %s target', (kind) => {
  it('a consumer sees each change exactly once across three runs and one crash, and is told when nothing changed', {
    timeout: 300_000,
  }, () => {
    const root = tempDir();
    const userDir = buildSampleCorpus(join(root, 'cursor')).userDir;
    const globalDb = join(userDir, 'globalStorage', 'state.vscdb');
    const target =
      kind === 'duckdb' ? `duckdb:${join(root, 'w.duckdb')}` : `parquet:${join(root, 'dataset')}`;
    const run = () => runJson(['--cursor-user-dir', userDir, '--target', target]);
    let n = 0;
    const exportArgs = (out: string) => [
      'export',
      '--json',
      '--format',
      'archive-jsonl',
      '--changes',
      '--consumer',
      'downstream',
      '--out',
      out,
      '--target',
      target,
    ];
    const feed = (): { lines: ChangeLine[]; changes: ChangesSummary } => {
      const out = join(root, `feed-${++n}.jsonl`);
      const result = runCli(exportArgs(out));
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const envelope = JSON.parse(result.stdout) as { export: { changes: ChangesSummary } };
      return { lines: readLines(out), changes: envelope.export.changes };
    };
    const digests = () =>
      new Map(
        queryRows(target, 'select session_id, view_digest from sessions').map((r) => [
          String(r.session_id),
          String(r.view_digest),
        ]),
      );
    const delivered: string[] = [];
    const deliver = (lines: ChangeLine[]) => {
      const now = digests();
      for (const line of lines) {
        expect(line.format).toBe('cursor-etl.archive-change.v1');
        expect(line.key).toBe(`cursor:${line.sessionId}`);
        expect(line.viewDigest).toBe(now.get(line.sessionId));
        delivered.push(`${line.changedInRun} ${line.sessionId} ${line.change}`);
      }
    };
    const [a, b, c] = SAMPLE_COMPOSERS.map((s) => s.id) as [string, string, string];

    const run1 = run();
    const first = feed();
    expect(first.changes).toMatchObject({ fromSeq: null, sessions: 3, inserted: 3 });
    expect(first.lines.every((l) => l.change === 'inserted' && (l.messages ?? []).length > 0)).toBe(true);
    deliver(first.lines);

    rewriteComposer(globalDb, {
      ...SAMPLE_COMPOSERS[0]!,
      bubbles: SAMPLE_COMPOSERS[0]!.bubbles.map((x) => ({ ...x, text: `${x.text} v2` })),
    });
    const run2 = run();
    expect(run2.counts.sessionsReplaced).toBe(1);
    // Killed after the file is published, before the cursor moves: the next export sends it again.
    const crashedOut = join(root, 'crashed.jsonl');
    const crashed = runCli(exportArgs(crashedOut), faultAfter('export-published:1'));
    expect(crashed.code).not.toBe(0);
    expect(readLines(crashedOut).map((l) => [l.sessionId, l.change])).toEqual([[a, 'replaced']]);
    const second = feed();
    expect(second.lines.map((l) => [l.sessionId, l.change, l.changedInRun])).toEqual([
      [a, 'replaced', run2.runId],
    ]);
    deliver(second.lines);

    rewriteComposer(globalDb, {
      ...SAMPLE_COMPOSERS[2]!,
      bubbles: SAMPLE_COMPOSERS[2]!.bubbles.map((x) => ({ ...x, text: `${x.text} v3` })),
    });
    deleteComposer(globalDb, b);
    dropFromWorkspaceIndex(
      join(userDir, 'workspaceStorage', '6a1f0c2d7e00000000000000000000a2', 'state.vscdb'),
      b,
    );
    const run3 = run();
    expect(run3.counts).toMatchObject({ sessionsReplaced: 1, sessionsMarkedAbsent: 1 });
    const third = feed();
    expect(third.changes).toMatchObject({ sessions: 2, replaced: 1, absent: 1 });
    const absent = third.lines.find((l) => l.sessionId === b)!;
    expect(absent).toMatchObject({ change: 'absent', presentInSource: false, changedInRun: run3.runId });
    expect(absent.messages).toBeUndefined();
    deliver(third.lines);

    const quiet = feed();
    expect(quiet.lines).toEqual([]);
    expect(quiet.changes).toMatchObject({ sessions: 0, fromSeq: third.changes.toSeq });
    expect(quiet.changes.message).toMatch(/^No session changed since consumer downstream's last export/);

    expect(delivered.sort()).toEqual(
      [
        ...[a, b, c].map((id) => `${run1.runId} ${id} inserted`),
        `${run2.runId} ${a} replaced`,
        `${run3.runId} ${b} absent`,
        `${run3.runId} ${c} replaced`,
      ].sort(),
    );
    // Absence is announced, never applied: the archive keeps every session.
    expect(digests().size).toBe(3);
    expect(queryRows(target, 'select consumer, exports from etl_consumers')).toEqual([
      { consumer: 'downstream', exports: 4 },
    ]);
  });

  it('writes a changes file and the changed sessions rows as Parquet, and refuses a bad consumer or flag mix', {
    timeout: 180_000,
  }, async () => {
    const root = tempDir();
    const userDir = buildSampleCorpus(join(root, 'cursor')).userDir;
    const target =
      kind === 'duckdb' ? `duckdb:${join(root, 'w.duckdb')}` : `parquet:${join(root, 'dataset')}`;
    runJson(['--cursor-user-dir', userDir, '--target', target]);
    const out = join(root, 'feed');
    const args = ['export', '--json', '--format', 'parquet', '--changes', '--target', target];
    const result = runCli([...args, '--consumer', 'engine', '--out', out]);
    expect(result.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(
      [
        'changes',
        'file_edits',
        'messages',
        'row_provenance',
        'sessions',
        'source_instances',
        'tool_calls',
        'usage',
      ].map((t) => `${t}.parquet`),
    );
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    const changes = (
      await duck.runAndReadAll(
        `select session_key, change, present_in_source from read_parquet('${join(out, 'changes.parquet')}') order by 1`,
      )
    ).getRowObjects();
    duck.closeSync();
    expect(changes).toEqual(
      SAMPLE_COMPOSERS.map((s) => ({
        session_key: `cursor:${s.id}`,
        change: 'inserted',
        present_in_source: true,
      })).sort((x, y) => (x.session_key < y.session_key ? -1 : 1)),
    );
    for (const [extra, reason] of [
      [['--consumer', '../x'], 'consumer-name'],
      [[], 'changes-without-consumer'],
      [['--consumer', 'engine', '--where', 'true'], 'changes-filter'],
    ] as const) {
      const refused = runCli([...args, ...extra, '--out', join(root, `refused-${reason}`)]);
      expect(refused.code).toBe(2);
      expect(JSON.parse(refused.stderr).error.details.reason).toBe(reason);
      expect(existsSync(join(root, `refused-${reason}`))).toBe(false);
    }
  });
});
