import { describe, expect, it, vi } from 'vitest';

const required = vi.hoisted((): string[] => []);

vi.mock('../../../src/shared/require-commonjs.js', async (original) => {
  const { recordingRequireModule } = await import('../../helpers/recorded-requires.js');
  return recordingRequireModule(await original(), required);
});

describe('the lazily required SQLite driver', () => {
  it('is not required until a database is opened, then opens, queries and names its errors', async () => {
    const { Database } = await import('../../../src/extract/sqlite/sqlite-driver.js');
    expect(required).not.toContain('better-sqlite3');
    const db = new Database(':memory:');
    expect(required).toEqual(['better-sqlite3']);
    expect(db.prepare('SELECT 41 + 1 AS n').get()).toEqual({ n: 42 });
    let caught: unknown = null;
    try {
      db.prepare('SELECT * FROM missing').get();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(Database.SqliteError);
    expect(db).toBeInstanceOf(Database);
    db.close();
  });
});
