import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildBenchCorpus, CORPUS_MANIFEST } from '../../fixtures/bench/bench-corpus.js';
import { tempDir } from '../helpers/run-cli.js';

const SCRIPT = resolve('dist/bench/one-bubble-ab.js');
const work = tempDir('etl-one-bubble-ab-');
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('bench/one-bubble-ab (smoke, tiny corpus)', () => {
  it('measures this build and a baseline checkout in its work dir, and uses the corpus up', () => {
    const corpusDir = join(work, 'corpus');
    const warehouses = join(work, 'warehouses');
    buildBenchCorpus(corpusDir, { sessions: 6, messages: 4, seed: 1, storeShare: 0 });
    const result = spawnSync(
      process.execPath,
      [
        SCRIPT,
        '--corpus',
        corpusDir,
        '--runs',
        '1',
        '--full-runs',
        '2',
        '--baseline',
        resolve('.'),
        '--work',
        warehouses,
      ],
      { encoding: 'utf8', timeout: 120_000 },
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines.map((line) => line.split(':')[0])).toEqual(['baseline', 'this build']);
    for (const line of lines)
      expect(line).toMatch(
        /full load \(median of 2\) wall \d+\.\d\d s, CPU .* one bubble \(median of 1\) wall \d+\.\d\d s = \d+\.\d %, CPU/,
      );
    expect(existsSync(join(corpusDir, CORPUS_MANIFEST))).toBe(false);
    expect(
      readdirSync(warehouses)
        .filter((name) => name.endsWith('.duckdb'))
        .sort(),
    ).toEqual(['one-bubble-ab-0.duckdb', 'one-bubble-ab-1.duckdb']);
    expect(readdirSync(work).sort()).toEqual(['corpus', 'warehouses']);
  }, 150_000);
});
