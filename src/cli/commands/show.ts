/**
 * `etl show <session-id>`: the messages of one session; with `--provenance`, each message and tool
 * call with the source instance and the record (locator, frame) it was read from.
 */
import { runQuery } from '../../load/duckdb/read-only-query.js';
import { sqlString } from '../../load/duckdb/sql-string.js';
import { assertCurrentSchema } from '../../load/duckdb/warehouse-version.js';
import { withReadOnlyTarget } from '../../load/read-only-target.js';
import { NotFoundError } from '../../shared/errors.js';
import { formatTable } from '../format-table.js';
import type { Output } from '../output.js';
import { parseTargetSpec } from '../target-spec.js';
import { visibleText } from '../visible-text.js';

/** Every row the `--provenance` listing shows, a message's own rows before its tool calls'. */
function provenanceSql(id: string): string {
  return `SELECT m.ordinal, m.role, m.origin, p.row_kind, p.tool_ordinal, i.representation, i.carrier,
      p.locator, p.frame_index, p.source_frame_index, p.chosen
    FROM messages m
    LEFT JOIN (
      SELECT p.*, coalesce(t.message_id, p.row_id) AS owner, t.tool_ordinal
      FROM row_provenance p
      LEFT JOIN tool_calls t ON p.row_kind = 'tool_call' AND t.session_id = p.session_id AND t.archive_key = p.row_id
      WHERE p.session_id = ${id}
    ) p ON p.owner = m.message_id
    LEFT JOIN source_instances i ON i.session_id = m.session_id AND i.instance_ordinal = p.instance_ordinal
    WHERE m.session_id = ${id}
    ORDER BY m.ordinal, p.row_kind, p.tool_ordinal NULLS FIRST, p.instance_ordinal, p.locator`;
}

function messagesSql(id: string): string {
  return `SELECT ordinal, role, origin, timestamp, content FROM messages WHERE session_id = ${id} ORDER BY ordinal`;
}

export async function showCommand(
  sessionId: string,
  flags: { target?: string; provenance?: boolean },
  output: Output,
): Promise<number> {
  const target = parseTargetSpec(flags.target);
  const id = sqlString(sessionId);
  const { session, result } = await withReadOnlyTarget(target, async (connection) => {
    await assertCurrentSchema(connection);
    const sessions = await runQuery(
      connection,
      `SELECT session_id, title, resolved_source, fidelity, message_count FROM sessions WHERE session_id = ${id}`,
    );
    return {
      session: sessions.rows[0],
      result: await runQuery(connection, flags.provenance ? provenanceSql(id) : messagesSql(id)),
    };
  });
  if (session === undefined)
    throw new NotFoundError('SESSION_NOT_FOUND', 'The warehouse holds no session with this ID', {});
  const header = visibleText(
    `${String(session.session_id)}: ${String(session.title ?? '(untitled)')} (${String(session.resolved_source)}, ${String(session.fidelity)}, ${String(session.message_count)} messages)`,
  );
  output.success(
    { session, columns: result.columns, rows: result.rows },
    `${header}\n${formatTable(result.columns, result.rows)}`,
  );
  return 0;
}
