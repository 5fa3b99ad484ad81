import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BLANK_KINDS,
  BLANK_SIZES,
  type BlankSourceKind,
  blankKindSessionId,
  blankRunCases,
  blankRunText,
  SOAK_BLANK_SIZES,
  writeBlankSource,
  writeOverSourceBytes,
} from '../../fixtures/hostile/blank-line-cases.js';
import { tempDir } from '../helpers/run-cli.js';
import { fatalCode, runEtl, tempResidue } from './harness/etl-process.js';
import { SOAK } from './harness/hostile-runner.js';

/** The harness deadline of one run: a scan that is not linear in the blank bytes misses it by far. */
const DEADLINE_MS = 60_000;

interface Archived {
  code: number | null;
  diagnostics: string[];
  /** Fidelity, message count and a digest of every message and tool call (physical line numbers aside). */
  session: { fidelity: string; message_count: number; content: string } | undefined;
}

/** One full run of `args` into a new warehouse, then what it archived for the kind's session. */
function archive(root: string, kind: BlankSourceKind, args: string[], extra: string[] = []): Archived {
  const tmp = join(root, 'tmp');
  const target = `duckdb:${join(root, 'w.duckdb')}`;
  const run = runEtl(['run', '--json', ...args, '--target', target, ...extra], {
    tmpDir: tmp,
    timeoutMs: DEADLINE_MS,
  });
  expect(run.timedOut).toBe(false);
  if (run.code !== 0) return { code: run.code, diagnostics: [fatalCode(run) ?? 'none'], session: undefined };
  const diagnostics = (JSON.parse(run.stdout) as { diagnostics: { code: string }[] }).diagnostics
    .map((d) => d.code)
    .sort();
  const query = runEtl(['query', '--json', '--target', target, contentSql(blankKindSessionId(kind))], {
    tmpDir: tmp,
    timeoutMs: DEADLINE_MS,
  });
  expect(query.code).toBe(0);
  const verify = runEtl(['verify', '--target', target], { tmpDir: tmp, timeoutMs: DEADLINE_MS });
  expect(verify.code).toBe(0);
  expect(tempResidue(tmp)).toEqual([]);
  const rows = (JSON.parse(query.stdout) as { rows: Archived['session'][] }).rows;
  return { code: run.code, diagnostics, session: rows[0] };
}

/** Tool calls keep their records' physical line numbers, so their extensions are left out. */
function contentSql(sessionId: string): string {
  const m = `(SELECT md5(string_agg(concat_ws('|', message_id, role, content, thinking), '/' ORDER BY ordinal)) FROM messages WHERE session_id = s.session_id)`;
  const t = `(SELECT md5(string_agg(concat_ws('|', message_id, tool_id, name, status, params::VARCHAR, result::VARCHAR), '/' ORDER BY message_id, tool_ordinal)) FROM tool_calls WHERE session_id = s.session_id)`;
  return `SELECT fidelity, message_count, ${m} || ${t} AS content FROM sessions s WHERE session_id = '${sessionId}'`;
}

const clean = new Map<BlankSourceKind, Archived>();

/** What a run of the kind's healthy file without a blank line archives (run once per kind). */
function cleanArchive(kind: BlankSourceKind): Archived {
  const known = clean.get(kind);
  if (known) return known;
  const root = tempDir('etl-blank-clean-');
  const result = archive(root, kind, writeBlankSource(root, kind, blankRunText(kind, null)));
  expect(result.code).toBe(0);
  expect(result.session?.message_count).toBeGreaterThan(0);
  clean.set(kind, result);
  rmSync(root, { recursive: true, force: true });
  return result;
}

describe('archive trust: blank lines are no records (source-read-limits/v1: jsonlRecordCount counts "Nonempty records in one transcript")', () => {
  const cases = blankRunCases(SOAK ? SOAK_BLANK_SIZES : BLANK_SIZES);
  // The lane takes half the cases (two spellings per kind, alternating, every size at the start of
  // each kind group); the soak all.
  for (const c of SOAK ? cases : cases.filter((_, i) => (i + Math.floor(i / 4)) % 2 === 0)) {
    it(`${c.name}: read as the clean file within the deadline, records intact, no diagnostic added`, () => {
      const expected = cleanArchive(c.kind);
      const root = tempDir('etl-blank-');
      // A blank line longer than jsonlRecordBytes is no record, so it crosses no record bound.
      const got = archive(root, c.kind, writeBlankSource(root, c.kind, blankRunText(c.kind, c)), [
        '--source-limit',
        'jsonlRecordBytes=64KiB',
      ]);
      expect(got).toEqual(expected);
      rmSync(root, { recursive: true, force: true });
    });
  }

  for (const kind of BLANK_KINDS) {
    it(`${kind}: blank lines count toward jsonlSourceBytes: a file over it is refused with SOURCE_LIMIT_EXCEEDED, nothing archived`, () => {
      const root = tempDir('etl-blank-over-');
      const got = archive(root, kind, writeOverSourceBytes(root, kind, 2 * 1024 * 1024), [
        '--source-limit',
        'jsonlSourceBytes=1MiB',
        '--source-limit',
        'jsonlRecordBytes=64KiB',
      ]);
      // Exit 4 when no record was read (fatal for the source), else 0 with the diagnostic (partial).
      expect([0, 4]).toContain(got.code);
      expect(got.diagnostics).toContain('SOURCE_LIMIT_EXCEEDED');
      expect(got.session).toBeUndefined();
      rmSync(root, { recursive: true, force: true });
    });
  }
});
