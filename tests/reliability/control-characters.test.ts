/**
 * Archive trust, class 11: control characters stored in the data (fixtures/hostile/control-char-cases.ts:
 * samples × positions × fields) never reach a terminal raw from any human output (`run`, `status`,
 * `sources`, `query`, `show`, error lines), and `--json` stays valid JSON with the exact values.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CONTROL_FIELDS,
  CONTROL_SAMPLES,
  type ControlCharCase,
  controlCharCases,
  writeControlCharCorpus,
} from '../../fixtures/hostile/control-char-cases.js';
import { tempDir } from '../helpers/run-cli.js';
import { runEtlInProcess } from './harness/etl-in-process.js';
import type { EtlResult } from './harness/etl-process.js';

/** Every character a terminal acts on but the line feed that lays out the CLI's own lines. */
const ACTING =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

function rawControls(result: EtlResult): string[] {
  return [result.stdout, result.stderr].flatMap((text) =>
    [...text].filter((c) => ACTING.test(c)).map((c) => `U+${c.codePointAt(0)!.toString(16)}`),
  );
}

type Row = Record<string, unknown>;

describe('archive trust: control characters from the data print visibly, JSON keeps them exactly', () => {
  const cases = controlCharCases();
  let root: string;
  let tmp: string;
  let userDir: string;
  let target: string;
  const etl = (args: string[]): Promise<EtlResult> => runEtlInProcess(args, tmp);
  const jsonRows = async (sql: string): Promise<Row[]> => {
    const result = await etl(['query', '--json', '--target', target, sql]);
    expect(result.code, result.stderr).toBe(0);
    return (JSON.parse(result.stdout) as { rows: Row[] }).rows;
  };

  beforeAll(async () => {
    root = tempDir('etl-controls-');
    tmp = tempDir('etl-controls-tmp-');
    // The Cursor directory's own path carries controls too: it reaches run, sources and errors.
    userDir = join(root, `cursor-\u001b]0;t\u0007-\u202e-\u009b2J`, 'User');
    writeControlCharCorpus(userDir, cases);
    target = `duckdb:${join(root, 'w.duckdb')}`;
    const run = await etl(['run', '--json', '--cursor-user-dir', userDir, '--target', target]);
    expect(run.code, run.stderr).toBe(0);
  }, 120_000);

  it(`--json keeps every stored value exactly (${cases.length} sessions × ${CONTROL_FIELDS.length} fields)`, async () => {
    const sessions = new Map(
      (await jsonRows('select session_id, title, workspace_path from sessions')).map((r) => [
        r.session_id,
        r,
      ]),
    );
    const messages = new Map(
      (await jsonRows("select session_id, content from messages where role = 'user'")).map((r) => [
        r.session_id,
        r,
      ]),
    );
    const tools = new Map(
      (await jsonRows('select session_id, name from tool_calls')).map((r) => [r.session_id, r]),
    );
    const actual = (c: ControlCharCase): Record<string, unknown> => ({
      title: sessions.get(c.sessionId)?.title,
      message: messages.get(c.sessionId)?.content,
      workspace: sessions.get(c.sessionId)?.workspace_path,
      tool: tools.get(c.sessionId)?.name,
    });
    for (const c of cases) expect(actual(c), c.name).toEqual(c.values);
  });

  it('no human output carries a raw control character; the samples show as escapes', {
    timeout: 180_000,
  }, async () => {
    const outputs: [string, EtlResult][] = [];
    const human = async (label: string, args: string[]): Promise<EtlResult> => {
      const result = await etl(args);
      outputs.push([label, result]);
      return result;
    };
    await human('run', ['run', '--cursor-user-dir', userDir, '--target', target]);
    await human('status', ['status', '--target', target]);
    await human('sources', ['sources', '--cursor-user-dir', userDir]);
    for (const sql of [
      'select session_id, title, workspace_path from sessions order by session_id',
      'select session_id, role, content from messages order by session_id, ordinal',
      'select session_id, name from tool_calls order by session_id',
      'select * from source_instances',
      'select * from diagnostics',
    ])
      await human(`query ${sql}`, ['query', '--target', target, sql]);
    // One `show` per sample, the position rotating, in both listings.
    for (const [i, sample] of CONTROL_SAMPLES.entries()) {
      const c = cases[i * 3 + (i % 3)]!;
      expect(c.sample).toBe(sample);
      const shown = await human(`show ${c.name}`, ['show', c.sessionId, '--target', target]);
      expect(shown.code).toBe(0);
      expect(shown.stdout.split('\n')[0], c.name).toContain('Session title'.slice(0, 4));
      await human(`show --provenance ${c.name}`, ['show', '--provenance', c.sessionId, '--target', target]);
      // Error lines echo what was asked: an unknown session, a column name, a time zone.
      const errors = [
        ['show', `${sample.text}missing`, '--target', target],
        ['query', '--target', target, `select "${sample.text}x"`],
        ['query', '--time-zone', `Europe/${sample.text}`, '--target', target, 'select 1'],
      ];
      const failed = await human(`error ${sample.name}`, errors[i % errors.length]!);
      expect(failed.code, sample.name).not.toBe(0);
    }
    const leaks = outputs.flatMap(([label, result]) => {
      const raw = rawControls(result);
      return raw.length > 0 ? [`${label}: ${[...new Set(raw)].join(' ')}`] : [];
    });
    expect(leaks).toEqual([]);
    const all = outputs.map(([, r]) => r.stdout).join('\n');
    for (const visible of [
      '\\e[2J\\e[H',
      '\\e]0;owned\\x07',
      '\\x9b31m',
      '\\u202etxt.exe',
      '\\x00',
      '\\x7f',
      '\\x08',
    ])
      expect(all).toContain(visible);
  });

  it('--json outputs of the same commands are valid JSON with no raw C1, DEL or bidi character', async () => {
    const c = cases.find((x) => x.sample.name === 'bidi-override')!;
    for (const args of [
      ['show', c.sessionId, '--target', target],
      ['query', '--target', target, 'select title, workspace_path from sessions'],
      ['status', '--target', target],
      ['sources', '--cursor-user-dir', userDir],
      ['query', '--target', target, 'select "\u202ex\u0085"'],
    ]) {
      const result = await etl(['--json', ...args]);
      expect(rawControls(result), args.join(' ')).toEqual([]);
      const text = result.code === 0 ? result.stdout : result.stderr;
      expect(() => JSON.parse(text)).not.toThrow();
    }
    const shown = await etl(['show', '--json', c.sessionId, '--target', target]);
    expect((JSON.parse(shown.stdout) as { session: Row }).session.title).toBe(c.values.title);
  });
});
