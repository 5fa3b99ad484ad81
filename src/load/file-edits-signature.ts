/**
 * What an unchanged session's stored `file_edits` rows are compared by (they stay out of the view
 * digest): row count and the sums and counts of known line counts, so a changed `codeBlockDiff`
 * row refreshes them in place. Computed the same way in SQL and from rows.
 */
import type { FileEditRow } from '../../schemas/tables.js';

/** The signature of one session's rows as an aggregate over `file_edits` (aliased or not). */
export const FILE_EDITS_SIGNATURE_SQL = `concat_ws(':', count(*), coalesce(sum(lines_added), 0),
  count(lines_added), coalesce(sum(lines_removed), 0), count(lines_removed))`;

export const NO_FILE_EDITS_SIGNATURE = '0:0:0:0:0';

export function fileEditsSignature(
  rows: readonly Pick<FileEditRow, 'lines_added' | 'lines_removed'>[],
): string {
  let added = 0;
  let knownAdded = 0;
  let removed = 0;
  let knownRemoved = 0;
  for (const row of rows) {
    if (row.lines_added !== null) {
      added += Number(row.lines_added);
      knownAdded++;
    }
    if (row.lines_removed !== null) {
      removed += Number(row.lines_removed);
      knownRemoved++;
    }
  }
  return [rows.length, added, knownAdded, removed, knownRemoved].join(':');
}
