import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { appendBubble } from '../../fixtures/bench/append-bubble.js';
import { buildBenchCorpus } from '../../fixtures/bench/bench-corpus.js';
import { tempDir } from '../helpers/run-cli.js';

const work = tempDir('etl-bench-corpus-');
afterAll(() => rmSync(work, { recursive: true, force: true }));

const options = { sessions: 12, messages: 20, seed: 7, storeShare: 0 };
const globalDb = (userDir: string): string => join(userDir, 'globalStorage', 'state.vscdb');
const digest = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('benchmark corpus generator', () => {
  const a = buildBenchCorpus(join(work, 'a'), options);
  const b = buildBenchCorpus(join(work, 'b'), options);

  it('is deterministic: the same options and seed give a byte-identical global DB', () => {
    expect(digest(globalDb(a.userDir))).toBe(digest(globalDb(b.userDir)));
    const other = buildBenchCorpus(join(work, 'c'), { ...options, seed: 8 });
    expect(digest(globalDb(other.userDir))).not.toBe(digest(globalDb(a.userDir)));
  });

  it('reports the rows and bytes actually stored', () => {
    const db = new Database(globalDb(a.userDir), { readonly: true });
    const bubbles = db
      .prepare("SELECT count(*) AS n FROM cursorDiskKV WHERE key LIKE 'bubbleId:%'")
      .get() as {
      n: number;
    };
    const docs = db
      .prepare("SELECT count(*) AS n FROM cursorDiskKV WHERE key LIKE 'composerData:%'")
      .get() as {
      n: number;
    };
    db.close();
    expect(bubbles.n).toBe(a.stats.bubbles);
    expect(docs.n).toBe(options.sessions);
    expect(a.stats.bubbles).toBeGreaterThanOrEqual(options.sessions * (options.messages / 2));
    expect(a.stats.sourceBytes).toBe(a.stats.globalDbBytes + a.stats.workspaceDbBytes);
  });

  it('writes user texts of 200 B–4 KB and assistant thinking blocks', () => {
    const db = new Database(globalDb(a.userDir), { readonly: true });
    const values = (
      db.prepare("SELECT value FROM cursorDiskKV WHERE key LIKE 'bubbleId:%'").all() as {
        value: string;
      }[]
    ).map((row) => JSON.parse(row.value) as { type: number; text: string; thinking?: unknown });
    db.close();
    const users = values.filter((v) => v.type === 1);
    expect(users.length).toBeGreaterThan(0);
    for (const user of users) {
      expect(Buffer.byteLength(user.text)).toBeGreaterThanOrEqual(200);
      expect(user.text.length).toBeLessThanOrEqual(4000);
    }
    expect(values.some((v) => v.thinking !== undefined)).toBe(true);
  });

  it('appendBubble adds one bubble row and its header to one session', () => {
    const session = b.plans[0]!;
    appendBubble(b.userDir, session.id, 99);
    const db = new Database(globalDb(b.userDir), { readonly: true });
    const rows = db
      .prepare('SELECT count(*) AS n FROM cursorDiskKV WHERE key LIKE ?')
      .get(`bubbleId:${session.id}:%`) as { n: number };
    const doc = db
      .prepare('SELECT value FROM cursorDiskKV WHERE key = ?')
      .get(`composerData:${session.id}`) as {
      value: string;
    };
    db.close();
    expect(rows.n).toBe(session.messages + 1);
    const headers = (JSON.parse(doc.value) as { fullConversationHeadersOnly: unknown[] })
      .fullConversationHeadersOnly;
    expect(headers).toHaveLength(session.messages + 1);
  });
});
