/**
 * `etl export --changes`: the sessions `etl_session_changes` logged after a consumer's cursor,
 * one row each (its latest content change, else its absence). A consumer without a cursor is sent
 * every archived session. The window's end is read with the rows, so a later run is never skipped.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { UsageError } from '../../shared/errors.js';
import { assertCurrentSchema } from '../duckdb/warehouse-version.js';

const CONSUMER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function checkConsumerName(name: string): string {
  if (!CONSUMER_NAME.test(name))
    throw new UsageError(
      'USAGE_ERROR',
      '--consumer takes 1-64 letters, digits, dots, dashes or underscores',
      {
        reason: 'consumer-name',
      },
    );
  return name;
}

/** What one export sends: changes after `fromSeq` (null: everything) up to `toSeq` inclusive. */
export interface FeedWindow {
  consumer: string;
  fromSeq: number | null;
  toSeq: number;
  toRun: string | null;
  /** SQL of the rows sent: session_id, feed_change, feed_run, feed_seq (NULL for a first export). */
  relation: string;
}

export interface FeedCounts {
  sessions: number;
  inserted: number;
  replaced: number;
  absent: number;
}

function sinceSql(fromSeq: number, toSeq: number): string {
  return `SELECT session_id,
      CASE WHEN bool_or(change = 'inserted') THEN 'inserted'
        WHEN bool_or(change = 'replaced') THEN 'replaced' ELSE 'absent' END AS feed_change,
      coalesce(arg_max(run_id, change_seq) FILTER (WHERE change <> 'absent'), arg_max(run_id, change_seq)) AS feed_run,
      max(change_seq) AS feed_seq
    FROM etl_session_changes WHERE change_seq > ${fromSeq} AND change_seq <= ${toSeq}
      AND session_id IN (SELECT session_id FROM sessions)
    GROUP BY session_id`;
}

const EVERYTHING_SQL = `SELECT s.session_id, 'inserted' AS feed_change,
    coalesce(st.last_changed_run, st.first_seen_run) AS feed_run, NULL::BIGINT AS feed_seq
  FROM sessions s LEFT JOIN etl_session_state st USING (session_id)`;

export async function readFeedWindow(connection: DuckDBConnection, consumer: string): Promise<FeedWindow> {
  await assertCurrentSchema(connection);
  const cursor = await connection.runAndReadAll('SELECT acked_seq FROM etl_consumers WHERE consumer = $1', [
    consumer,
  ]);
  const acked = cursor.getRows()[0]?.[0];
  const end = await connection.runAndReadAll(
    'SELECT coalesce(max(change_seq), 0), arg_max(run_id, change_seq) FROM etl_session_changes',
  );
  const [toSeq, toRun] = end.getRows()[0]!;
  const fromSeq = acked === undefined || acked === null ? null : Number(acked);
  const to = Number(toSeq);
  return {
    consumer,
    fromSeq,
    toSeq: to,
    toRun: toRun === null || toRun === undefined ? null : String(toRun),
    relation: fromSeq === null ? EVERYTHING_SQL : sinceSql(fromSeq, to),
  };
}

export async function countFeed(connection: DuckDBConnection, window: FeedWindow): Promise<FeedCounts> {
  const reader = await connection.runAndReadAll(
    `SELECT count(*), count(*) FILTER (WHERE feed_change = 'inserted'),
      count(*) FILTER (WHERE feed_change = 'replaced'), count(*) FILTER (WHERE feed_change = 'absent')
     FROM (${window.relation})`,
  );
  const [sessions, inserted, replaced, absent] = reader.getRows()[0]!.map(Number);
  return { sessions: sessions!, inserted: inserted!, replaced: replaced!, absent: absent! };
}

/** The feed columns of a changed session; `feedSql` selects them with `s.*` columns. */
export const FEED_COLUMNS =
  'f.feed_change, f.feed_run, f.feed_seq, coalesce(st.present_in_source, true) AS feed_present';

/** `SELECT <columns>` over the window (`f`) joined to its session rows (`s`) and presence (`st`). */
export function feedSql(window: FeedWindow, columns: string): string {
  return `SELECT ${columns}
    FROM (${window.relation}) f JOIN sessions s USING (session_id)
    LEFT JOIN etl_session_state st ON st.session_id = f.session_id`;
}

/** The filter on a content table for the sessions whose rows an export sends (not absence only). */
export function contentFilter(window: FeedWindow): string {
  return `session_id IN (SELECT session_id FROM (${window.relation}) WHERE feed_change <> 'absent')`;
}
