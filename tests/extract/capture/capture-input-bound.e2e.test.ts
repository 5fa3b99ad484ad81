/**
 * The capture walk bound is the documented `--source-limit captureInputFiles=<n>`: a run admits
 * exactly n capture files of its --input folders, says how many it left, and a raised bound admits them.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { completeInFolder } from '../../../fixtures/capture/cli-captures.js';
import { writeCapture } from '../../../fixtures/capture/write-capture.js';
import { freshLoad } from '../../helpers/fresh-load.js';
import { tempDir } from '../../helpers/run-cli.js';

let root: string;
let inputs: string;

beforeAll(() => {
  root = tempDir('etl-capture-bound-');
  inputs = join(root, 'in');
  for (const name of ['a', 'b', 'c'])
    writeCapture(inputs, `${name}.ndjson`, completeInFolder(`sess-bound-${name}`, '/home/dev/app'));
});

describe('--source-limit captureInputFiles bounds the capture walk of one run', { timeout: 120_000 }, () => {
  it.each([
    [2, ['sess-bound-a', 'sess-bound-b'], true],
    [3, ['sess-bound-a', 'sess-bound-b', 'sess-bound-c'], false],
  ])('a bound of %i over 3 files admits exactly that many, in walk order', (bound, sessions, limited) => {
    const { output, rows } = freshLoad(root, [
      '--cursor-user-dir',
      join(root, 'no-user'),
      '--cursor-store-root',
      join(root, 'no-store'),
      '--input',
      inputs,
      '--source-limit',
      `captureInputFiles=${bound}`,
    ]);
    expect(rows('select session_id from sessions order by 1').map((r) => r.session_id)).toEqual(sessions);
    expect(
      (output.diagnostics as { code: string; details: unknown }[]).filter(
        (d) => d.code === 'CAPTURE_WALK_LIMIT',
      ),
    ).toEqual(limited ? [expect.objectContaining({ details: { bound: 'files', limit: bound } })] : []);
  });
});
