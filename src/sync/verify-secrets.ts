/**
 * `etl verify --secrets`: scans an archive with the redaction ruleset and reports the suspected
 * secrets by table, column and session, as counts per rule (never a value). A rule's hit is a
 * marker the ruleset would add; markers already there are not counted.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { readStoredSessions, storedSessionRanges } from '../load/duckdb/stored-sessions.js';
import type { StoredSession } from '../load/target.js';
import type { RedactionPolicy } from '../shared/redaction-policy.js';
import { type RedactionCounts, TextBatch } from '../transform/redact/redact-session.js';

export interface SecretSuspect {
  table: string;
  column: string;
  sessionId: string;
  byRule: RedactionCounts;
}

const MARKER = /\[REDACTED:([a-z0-9-]+)\]/g;

function markers(text: string): RedactionCounts {
  const counts: RedactionCounts = {};
  for (const match of text.matchAll(MARKER)) counts[match[1]!] = (counts[match[1]!] ?? 0) + 1;
  return counts;
}

type Cell = { table: string; column: string; value: string; json: boolean };

function cells(stored: StoredSession): Cell[] {
  const out: Cell[] = [];
  const add = (table: string, column: string, value: string | null, json = false): void => {
    if (value !== null) out.push({ table, column, value, json });
  };
  add('sessions', 'title', stored.session.title);
  add('sessions', 'extensions', stored.session.extensions, true);
  add('sessions', 'workspace_path', stored.session.workspace_path);
  for (const m of stored.messages) {
    add('messages', 'content', m.content);
    add('messages', 'thinking', m.thinking);
    add('messages', 'extensions', m.extensions, true);
  }
  for (const t of stored.toolCalls) {
    add('tool_calls', 'params', t.params, true);
    add('tool_calls', 'result', t.result);
    add('tool_calls', 'error', t.error);
    add('tool_calls', 'files', t.files, true);
    add('tool_calls', 'extensions', t.extensions, true);
  }
  for (const i of stored.sourceInstances) add('source_instances', 'workspace_path', i.workspace_path);
  for (const e of stored.fileEdits) {
    add('file_edits', 'diff', e.diff);
    add('file_edits', 'old_text', e.old_text);
    add('file_edits', 'new_text', e.new_text);
    add('file_edits', 'extensions', e.extensions, true);
  }
  return out;
}

async function scanSession(stored: StoredSession, homePaths: boolean): Promise<SecretSuspect[]> {
  const list = cells(stored);
  const batch = new TextBatch();
  for (const cell of list) cell.json ? batch.json(cell.value) : batch.text(cell.value);
  const redacted = await batch.redact({ homePaths }, {});
  const found = new Map<string, SecretSuspect>();
  list.forEach((cell, i) => {
    const before = markers(cell.value);
    for (const [rule, n] of Object.entries(markers(redacted[i]!))) {
      const added = n - (before[rule] ?? 0);
      if (added <= 0) continue;
      const key = `${cell.table}\0${cell.column}`;
      let suspect = found.get(key);
      if (suspect === undefined) {
        suspect = {
          table: cell.table,
          column: cell.column,
          sessionId: stored.session.session_id,
          byRule: {},
        };
        found.set(key, suspect);
      }
      suspect.byRule[rule] = (suspect.byRule[rule] ?? 0) + added;
    }
  });
  return [...found.values()];
}

/** Every suspect of the archive, session by session (memory flat in the archive's size). */
export async function scanArchiveForSecrets(
  connection: DuckDBConnection,
  policy: RedactionPolicy | null,
): Promise<{ sessionsScanned: number; suspects: SecretSuspect[] }> {
  const homePaths = policy?.enabled === true && policy.homePaths;
  const suspects: SecretSuspect[] = [];
  let sessionsScanned = 0;
  for (const range of await storedSessionRanges(connection)) {
    for (const stored of await readStoredSessions(connection, range)) {
      sessionsScanned++;
      suspects.push(...(await scanSession(stored, homePaths)));
    }
  }
  return { sessionsScanned, suspects };
}
