import { spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { currentState } from '../../helpers/dataset-files.js';
import { faultAfter, runCli } from '../../helpers/run-cli.js';
import { editBubbleText } from '../../helpers/sample-edits.js';
import { loadSample, type SampleWarehouse } from '../../helpers/sample-warehouse.js';

const A001 = '3f2a9c1e-0000-4000-8000-00000000a001';
const READER_LOOP = resolve('dist/tests/helpers/dataset-reader-loop.js');

function contentOf(target: string): string {
  const result = runCli([
    'query',
    '--json',
    '--target',
    target,
    "SELECT content FROM messages WHERE message_id = 'b-a001-06'",
  ]);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout).rows[0].content;
}

describe('Parquet publication is atomic', () => {
  let sample: SampleWarehouse;
  let dir: string;
  beforeEach(() => {
    sample = loadSample('parquet');
    dir = sample.target.slice('parquet:'.length);
  });

  it('a writer killed before the commit point leaves the old state fully readable, and the next run converges', () => {
    const published = currentState(dir);
    const before = contentOf(sample.target);
    editBubbleText(sample.userDir, A001, 'b-a001-06', 'Rewritten answer.');
    const killed = runCli(
      ['run', '--cursor-user-dir', sample.userDir, '--target', sample.target],
      faultAfter('parquet-state-built:1'),
    );
    expect(killed.code).not.toBe(0);
    expect(currentState(dir)).toBe(published);
    expect(readdirSync(join(dir, 'states')).length).toBe(2);
    expect(contentOf(sample.target)).toBe(before);
    expect(runCli(['verify', '--target', sample.target]).code).toBe(0);

    const next = runCli(['run', '--json', '--cursor-user-dir', sample.userDir, '--target', sample.target]);
    expect(next.code).toBe(0);
    expect(JSON.parse(next.stdout).run.counts).toMatchObject({ sessionsReplaced: 1 });
    expect(contentOf(sample.target)).toBe('Rewritten answer.');
    const states = readdirSync(join(dir, 'states'));
    expect(states.sort()).toEqual([published, currentState(dir)].sort());
    expect(readdirSync(join(dir, 'staging'))).toEqual([]);
    expect(existsSync(join(dir, 'writer.lock'))).toBe(false);
  }, 300_000);

  it('a concurrent reader child process never sees a mixed or missing table during publication', async () => {
    const stopFile = join(sample.root, 'stop');
    const child = spawn(process.execPath, [READER_LOOP, dir, stopFile], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    const exited = new Promise<number | null>((done) => child.on('close', done));
    for (let i = 0; i < 3; i++) {
      editBubbleText(sample.userDir, A001, 'b-a001-06', `Answer version ${i}.`);
      expect(runCli(['run', '--cursor-user-dir', sample.userDir, '--target', sample.target]).code).toBe(0);
    }
    writeFileSync(stopFile, '');
    expect(await exited).toBe(0);
    const report = JSON.parse(stdout) as { reads: number; states: string[]; problems: string[] };
    expect(report.problems).toEqual([]);
    expect(report.reads).toBeGreaterThan(0);
    expect(report.states.length).toBeGreaterThanOrEqual(2);
  }, 300_000);
});
