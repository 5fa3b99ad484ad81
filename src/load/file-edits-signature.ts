/**
 * What an unchanged session's stored `file_edits` (outside the view digest) are compared by: an
 * MD5 over each edit's message, ordinal and line counts, so changed counts are seen even when totals
 * stay equal. Parts are ASCII (message IDs as UTF-8 hex), so SQL and JS sort them alike.
 */
import { createHash } from 'node:crypto';
import type { FileEditRow } from '../../schemas/tables.js';

const PART_SQL = `upper(hex(message_id)) || '/' || edit_ordinal || '/' || coalesce(lines_added::VARCHAR, '') || '/' ||
  coalesce(lines_removed::VARCHAR, '')`;

/** The signature of one session's rows as an aggregate over `file_edits` (aliased or not). */
export const FILE_EDITS_SIGNATURE_SQL = `md5(coalesce(string_agg(${PART_SQL}, ';' ORDER BY ${PART_SQL}), ''))`;

type SignedRow = Pick<FileEditRow, 'message_id' | 'edit_ordinal' | 'lines_added' | 'lines_removed'>;

const part = (row: SignedRow): string =>
  [
    Buffer.from(row.message_id, 'utf8').toString('hex').toUpperCase(),
    String(row.edit_ordinal),
    row.lines_added === null ? '' : String(row.lines_added),
    row.lines_removed === null ? '' : String(row.lines_removed),
  ].join('/');

export function fileEditsSignature(rows: readonly SignedRow[]): string {
  const parts = rows.map(part).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('md5').update(parts.join(';')).digest('hex');
}

export const NO_FILE_EDITS_SIGNATURE = fileEditsSignature([]);
