/** Edits the sample's global `state.vscdb` as Cursor does between runs. */
import { join } from 'node:path';
import Database from 'better-sqlite3';

function openGlobal(userDir: string): Database.Database {
  return new Database(join(userDir, 'globalStorage', 'state.vscdb'));
}

export function editBubbleText(userDir: string, composerId: string, bubbleId: string, text: string): void {
  const db = openGlobal(userDir);
  try {
    const key = `bubbleId:${composerId}:${bubbleId}`;
    const row = db.prepare('SELECT value FROM cursorDiskKV WHERE key = ?').get(key) as { value: string };
    const bubble = JSON.parse(String(row.value)) as { text: string };
    bubble.text = text;
    // Cursor writes with INSERT; the table's UNIQUE ON CONFLICT REPLACE gives the row a new rowid.
    db.prepare('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)').run(key, JSON.stringify(bubble));
  } finally {
    db.close();
  }
}

export function removeSession(userDir: string, composerId: string): void {
  const db = openGlobal(userDir);
  try {
    db.prepare('DELETE FROM cursorDiskKV WHERE key = ? OR key LIKE ?').run(
      `composerData:${composerId}`,
      `bubbleId:${composerId}:%`,
    );
  } finally {
    db.close();
  }
}
