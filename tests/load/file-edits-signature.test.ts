import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import {
  FILE_EDITS_SIGNATURE_SQL,
  fileEditsSignature,
  NO_FILE_EDITS_SIGNATURE,
} from '../../src/load/file-edits-signature.js';

type Row = Parameters<typeof fileEditsSignature>[0][number];

const ROWS: Row[] = [
  { message_id: 'b:1', edit_ordinal: 0, lines_added: 3, lines_removed: 5 },
  { message_id: 'b:1', edit_ordinal: 1, lines_added: 5, lines_removed: null },
  { message_id: "é%'\u{1F600}:x", edit_ordinal: 10, lines_added: null, lines_removed: 2 },
  { message_id: 'ｂ', edit_ordinal: 9, lines_added: 0, lines_removed: 0 },
];

async function sqlSignature(rows: readonly Row[]): Promise<string> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await connection.run(
      'CREATE TABLE file_edits (message_id VARCHAR, edit_ordinal INTEGER, lines_added INTEGER, lines_removed INTEGER)',
    );
    for (const row of rows)
      await connection.run('INSERT INTO file_edits VALUES ($1, $2, $3, $4)', [
        row.message_id,
        row.edit_ordinal,
        row.lines_added,
        row.lines_removed,
      ]);
    const reader = await connection.runAndReadAll(`SELECT ${FILE_EDITS_SIGNATURE_SQL} AS s FROM file_edits`);
    return String(reader.getRowObjects()[0]!.s);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe('the file_edits signature of an unchanged session', () => {
  it('is the same in SQL and from rows, whatever the row order and message ID spelling', async () => {
    expect(await sqlSignature(ROWS)).toBe(fileEditsSignature([...ROWS].reverse()));
    expect(await sqlSignature([])).toBe(NO_FILE_EDITS_SIGNATURE);
  });

  it('changes when two edits swap their line counts, so the totals stay equal', () => {
    const swapped = ROWS.map((row, i) =>
      i === 0 ? { ...row, lines_added: 5 } : i === 1 ? { ...row, lines_added: 3 } : row,
    );
    expect(fileEditsSignature(swapped)).not.toBe(fileEditsSignature(ROWS));
  });

  it('tells an unknown count from a zero', () => {
    const unknown = ROWS.map((row, i) => (i === 3 ? { ...row, lines_added: null } : row));
    expect(fileEditsSignature(unknown)).not.toBe(fileEditsSignature(ROWS));
  });
});
