/** Edits a built Composer global database the way Cursor would: rewrite or delete one session. */
import Database from 'better-sqlite3';
import { type FixtureComposer, writeComposer } from '../../fixtures/composer/composer-session.js';
import { StateDbBuilder } from '../../fixtures/composer/state-db-builder.js';

export function rewriteComposer(dbPath: string, composer: FixtureComposer): void {
  const db = new StateDbBuilder(dbPath);
  writeComposer(db, composer);
  db.close();
}

export function deleteComposer(dbPath: string, composerId: string): void {
  const db = new Database(dbPath);
  db.prepare('DELETE FROM cursorDiskKV WHERE key = ? OR substr(key, 1, ?) = ?').run(
    `composerData:${composerId}`,
    `bubbleId:${composerId}:`.length,
    `bubbleId:${composerId}:`,
  );
  db.close();
}

/** Removes a session from a workspace DB's Composer index; returns a function that restores it. */
export function dropFromWorkspaceIndex(dbPath: string, composerId: string): () => void {
  const db = new Database(dbPath);
  const key = 'composer.composerData';
  const original = String(
    (db.prepare('SELECT value FROM ItemTable WHERE key = ?').get(key) as { value: string }).value,
  );
  const index = JSON.parse(original) as {
    allComposers: { composerId: string }[];
    selectedComposerIds?: string[];
  };
  index.allComposers = index.allComposers.filter((c) => c.composerId !== composerId);
  index.selectedComposerIds = (index.selectedComposerIds ?? []).filter((id) => id !== composerId);
  db.prepare('UPDATE ItemTable SET value = ? WHERE key = ?').run(JSON.stringify(index), key);
  db.close();
  return () => {
    const again = new Database(dbPath);
    again.prepare('UPDATE ItemTable SET value = ? WHERE key = ?').run(original, key);
    again.close();
  };
}
