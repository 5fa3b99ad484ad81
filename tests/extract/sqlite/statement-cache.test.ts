import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { cachedStatement } from '../../../src/extract/sqlite/statement-cache.js';

describe('cachedStatement', () => {
  it('prepares a statement once per connection and SQL text', () => {
    const a = new Database(':memory:');
    const b = new Database(':memory:');
    a.exec('CREATE TABLE t (k TEXT, v TEXT); INSERT INTO t VALUES (1, 2)');
    const first = cachedStatement(a, 'SELECT v FROM t WHERE k = ?');
    expect(cachedStatement(a, 'SELECT v FROM t WHERE k = ?')).toBe(first);
    expect(cachedStatement(a, 'SELECT k FROM t WHERE v = ?')).not.toBe(first);
    expect(cachedStatement(b, 'SELECT 1')).not.toBe(cachedStatement(a, 'SELECT 1'));
    expect(first.get('1')).toEqual({ v: '2' });
    // A schema change after the first prepare is picked up (SQLite re-prepares the cached statement).
    a.exec("ALTER TABLE t ADD COLUMN w TEXT; UPDATE t SET v = '3'");
    expect(first.get('1')).toEqual({ v: '3' });
  });

  it('does not cache a statement that failed to prepare', () => {
    const db = new Database(':memory:');
    expect(() => cachedStatement(db, 'SELECT x FROM missing')).toThrow(/no such table/);
    db.exec('CREATE TABLE missing (x)');
    expect(cachedStatement(db, 'SELECT x FROM missing').all()).toEqual([]);
  });
});
