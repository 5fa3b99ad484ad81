import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { completeInFolder } from '../../fixtures/capture/cli-captures.js';
import { exportChat } from '../../fixtures/capture/markdown-captures.js';
import { writeCapture } from '../../fixtures/capture/write-capture.js';
import { freshLoad } from '../helpers/fresh-load.js';
import { tempDir } from '../helpers/run-cli.js';

interface RunOutput {
  diagnostics: { code: string; details: Record<string, unknown> }[];
}

let root: string;
let inputs: string;
function scopedRun(...flags: string[]): {
  output: RunOutput;
  rows: (sql: string) => Record<string, unknown>[];
} {
  return freshLoad(root, ['--cursor-user-dir', join(root, 'no-cursor'), '--input', inputs, ...flags]);
}

const skipped = (output: RunOutput) =>
  output.diagnostics.filter((d) => d.code === 'CAPTURE_OUTSIDE_WORKSPACE');

beforeAll(() => {
  root = tempDir('etl-ws-captures-');
  inputs = join(root, 'in');
  writeCapture(inputs, 'trail-a.ndjson', completeInFolder('sess-trail-a', '/home/dev/./trail'));
  writeCapture(inputs, 'trail-b.ndjson', completeInFolder('sess-trail-b', '/home/dev//trail/'));
  writeCapture(inputs, 'other.ndjson', completeInFolder('sess-other', '/home/dev/other'));
  writeCapture(inputs, 'chat.md', exportChat());
});

describe('--workspace keeps the --input captures whose cwd belongs to the workspace', {
  timeout: 120_000,
}, () => {
  it('captures of the workspace load; the others are skipped with a diagnostic that counts them', () => {
    const { output, rows } = scopedRun('--workspace', '/home/dev/trail');
    expect(rows('select session_id, workspace_path from sessions order by 1')).toEqual([
      { session_id: 'sess-trail-a', workspace_path: '/home/dev/trail' },
      { session_id: 'sess-trail-b', workspace_path: '/home/dev/trail' },
    ]);
    expect(skipped(output)).toEqual([
      expect.objectContaining({ details: { count: 2, withoutWorkspace: 1 } }),
    ]);
  });

  it('a trailing component selects the capture workspace too', () => {
    const { rows } = scopedRun('--workspace', 'other');
    expect(rows('select session_id from sessions')).toEqual([{ session_id: 'sess-other' }]);
  });

  it('a filter matching nothing counts every capture as skipped', () => {
    const { output, rows } = scopedRun('--workspace', '/nowhere');
    expect(rows('select count(*)::int as n from sessions')).toEqual([{ n: 0 }]);
    expect(skipped(output)[0]?.details).toEqual({ count: 4, withoutWorkspace: 1 });
  });

  it('without a filter every capture loads and nothing is reported skipped', () => {
    const { output, rows } = scopedRun();
    expect(rows('select count(*)::int as n from sessions')).toEqual([{ n: 4 }]);
    expect(skipped(output)).toEqual([]);
  });
});
