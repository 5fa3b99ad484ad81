/**
 * One in-process `etl run` against a DuckDB warehouse, and what the archive trust tests read back:
 * every session's message texts in order, its fidelity, and `etl verify`'s problems.
 */
import { join } from 'node:path';
import { runEtlInProcess } from '../reliability/harness/etl-in-process.js';
import { verifyReport } from '../reliability/harness/warehouse-probe.js';
import { queryRows } from './query-warehouse.js';

export interface ArchiveRunResult {
  code: number;
  /** Diagnostic codes of a successful run; the fatal code of a failed one. */
  codes: string[];
  stdout: string;
  stderr: string;
}

export async function archiveRun(
  warehouse: string,
  sources: readonly string[],
  extra: readonly string[] = [],
): Promise<ArchiveRunResult> {
  const result = await runEtlInProcess(
    ['run', '--json', ...sources, '--target', `duckdb:${warehouse}`, ...extra],
    join(warehouse, '..', 'tmp'),
  );
  let codes: string[] = [];
  if (result.code === 0) {
    codes = (JSON.parse(result.stdout) as { diagnostics: { code: string }[] }).diagnostics.map((d) => d.code);
  } else {
    const match = /"code":\s*"([A-Z_]+)"/.exec(result.stderr);
    codes = match ? [match[1]!] : [];
  }
  return { code: result.code ?? -1, codes, stdout: result.stdout, stderr: result.stderr };
}

export interface ArchivedSession {
  fidelity: string;
  title: string | null;
  workspace: string | null;
  presentInSource: boolean;
  texts: string[];
}

/** Every archived session by ID. */
export async function archivedSessions(warehouse: string): Promise<Map<string, ArchivedSession>> {
  const sessions = await queryRows(
    warehouse,
    `SELECT s.session_id, s.fidelity, s.title, s.workspace_path, l.present_in_source
       FROM sessions s LEFT JOIN etl_session_state l USING (session_id)`,
  );
  const messages = await queryRows(
    warehouse,
    'SELECT session_id, content FROM messages ORDER BY session_id, ordinal',
  );
  const out = new Map<string, ArchivedSession>();
  for (const row of sessions) {
    out.set(String(row.session_id), {
      fidelity: String(row.fidelity),
      title: row.title === null ? null : String(row.title),
      workspace: row.workspace_path === null ? null : String(row.workspace_path),
      presentInSource: row.present_in_source === true,
      texts: [],
    });
  }
  for (const row of messages) out.get(String(row.session_id))?.texts.push(String(row.content));
  return out;
}

/** `etl verify`'s problems (none on a sound warehouse). */
export async function verifyProblems(warehouse: string): Promise<unknown[]> {
  return (await verifyReport(warehouse)).problems;
}
