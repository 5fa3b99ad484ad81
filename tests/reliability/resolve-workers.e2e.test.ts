import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSampleCorpus } from '../../fixtures/sample/sample-corpus.js';
import { runCli, tempDir } from '../helpers/run-cli.js';
import { contentChecksum, queryRows } from '../helpers/warehouse-cli.js';

// The sample corpus is far below the default threshold: the variable makes the built CLI use workers.
const WORKERS = { CURSOR_ETL_RESOLVE_WORKERS_FROM: '1' };
const INLINE = { CURSOR_ETL_RESOLVE_WORKERS_FROM: '1000000' };

let userDir: string;
let storeRoot: string;
let configHome: string;

beforeAll(() => {
  ({ userDir, storeRoot } = buildSampleCorpus(join(tempDir(), 'cursor')));
  configHome = tempDir();
});

/** Everything a run leaves behind that must not depend on where sessions were resolved. */
function outcome(extra: readonly string[], env: Record<string, string>) {
  const target = `duckdb:${join(tempDir(), 'w.duckdb')}`;
  const args = [
    'run',
    '--json',
    '--cursor-user-dir',
    userDir,
    '--cursor-store-root',
    storeRoot,
    '--target',
    target,
  ];
  // One identity key for both runs (sealed IDs of a redacting run depend on it).
  const result = runCli([...args, ...extra], { ...env, XDG_CONFIG_HOME: configHome });
  const stdout = result.stdout === '' ? null : JSON.parse(result.stdout);
  const { runId: _id, durationMs: _ms, ...summary } = stdout?.run ?? {};
  return {
    code: result.code,
    stderr: result.stderr,
    summary,
    checksum: contentChecksum(target),
    diagnostics: queryRows(
      target,
      'select seq, code, severity, session_id, source_ref, details from diagnostics order by seq',
    ),
    ledger: queryRows(
      target,
      'select session_id, source_key, occurrence_ref, session_fingerprint from etl_session_sources order by all',
    ),
  };
}

describe('etl run resolves sessions on worker threads with the outcome of the main thread', () => {
  it.each([
    ['default options', [], 0, 0],
    ['--redact', ['--redact'], 0, 1],
    ['a source limit that leaves a session unavailable', ['--source-limit', 'sqliteValueBytes=400'], 4, 0],
  ] as const)(
    '%s: same exit, error, counts, rows, diagnostics (in order) and ledger',
    (_name, extra, code, diagnostics) => {
      const inline = outcome(extra, INLINE);
      const workers = outcome(extra, WORKERS);
      expect(workers).toEqual(inline);
      expect(inline.code).toBe(code);
      // A failed run still records its diagnostics; a committed one has rows.
      if (code === 0) expect(inline.checksum).not.toBe('');
      else expect(JSON.parse(inline.stderr).error.code).toBe('SOURCE_LIMIT_EXCEEDED');
      expect(inline.diagnostics.length).toBeGreaterThanOrEqual(diagnostics);
    },
  );
});
