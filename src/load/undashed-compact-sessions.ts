/**
 * Older builds stored a compact `chats/<32 hex>/` Store session under the undashed name. Once no
 * source holds that name and its dashed spelling is present, it is an old identity, not history, and
 * both targets delete it; a session with any non-Store contributor is kept.
 */

/** Ledger candidates: absent undashed 32-hex sessions whose dashed spelling is present. */
const CANDIDATES_SQL = `SELECT s.session_id FROM etl_session_state s
  WHERE NOT s.present_in_source AND regexp_full_match(s.session_id, '[0-9a-fA-F]{32}')
    AND EXISTS (SELECT 1 FROM etl_session_state d WHERE d.present_in_source AND d.session_id =
      concat_ws('-', s.session_id[1:8], s.session_id[9:12], s.session_id[13:16], s.session_id[17:20], s.session_id[21:32]))`;

/** The undashed sessions to delete, judged on `instances` (a `source_instances` relation). */
export function undashedCompactSessionsSql(instances: string): string {
  return `${CANDIDATES_SQL}
    AND NOT EXISTS (SELECT 1 FROM ${instances} i WHERE i.session_id = s.session_id AND i.source_role <> 'store')`;
}

/** The candidates before their contributors are checked (a cheap ledger-only query). */
export const UNDASHED_COMPACT_CANDIDATES_SQL = CANDIDATES_SQL;
