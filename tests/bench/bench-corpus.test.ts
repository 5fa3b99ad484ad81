import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { appendBubble } from '../../fixtures/bench/append-bubble.js';
import { appendTranscriptTurn } from '../../fixtures/bench/append-transcript-turn.js';
import {
  buildBenchCorpus,
  growingTranscriptSession,
  hasComposer,
  oneBubbleSession,
} from '../../fixtures/bench/bench-corpus.js';
import { transcriptPath } from '../../fixtures/bench/bench-store.js';
import { tempDir } from '../helpers/run-cli.js';

const work = tempDir('etl-bench-corpus-');
afterAll(() => rmSync(work, { recursive: true, force: true }));

const options = { sessions: 16, messages: 20, seed: 7, storeShare: 0.5 };
const globalDb = (userDir: string): string => join(userDir, 'globalStorage', 'state.vscdb');
const files = (root: string): string[] =>
  readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => statSync(join(root, file)).isFile())
    .sort();
/** One digest over every file's relative path and bytes (the manifest excluded). */
function treeDigest(outDir: string): string {
  const hash = createHash('sha256');
  for (const file of files(outDir).filter((f) => f !== 'corpus.json'))
    hash.update(`${file}\0`).update(readFileSync(join(outDir, file)));
  return hash.digest('hex');
}
const storeDbs = (storeRoot: string): string[] =>
  files(storeRoot)
    .filter((file) => file.endsWith('store.db'))
    .map((file) => join(storeRoot, file));
const composerIds = (userDir: string): string[] => {
  const db = new Database(globalDb(userDir), { readonly: true });
  const rows = db.prepare("SELECT key FROM cursorDiskKV WHERE key LIKE 'composerData:%'").all() as {
    key: string;
  }[];
  db.close();
  return rows.map((row) => row.key.slice('composerData:'.length));
};

describe('benchmark corpus generator', () => {
  const a = buildBenchCorpus(join(work, 'a'), options);
  const b = buildBenchCorpus(join(work, 'b'), options);

  it('is deterministic: the same options and seed give byte-identical Composer and Store trees', () => {
    expect(treeDigest(join(work, 'a'))).toBe(treeDigest(join(work, 'b')));
    const other = buildBenchCorpus(join(work, 'c'), { ...options, seed: 8 });
    expect(treeDigest(join(work, 'c'))).not.toBe(treeDigest(join(work, 'a')));
    expect(other.stats.sessions).toBe(options.sessions);
  });

  it('gives the Store share of the sessions a Store form: merged with Composer, DB only, transcript only', () => {
    expect(a.stats.kinds).toEqual({
      composer: 8,
      'merged-db': 2,
      'merged-transcript': 2,
      'store-db': 2,
      'store-transcript': 2,
    });
    const inComposer = new Set(composerIds(a.userDir));
    for (const plan of a.plans) expect(inComposer.has(plan.id)).toBe(hasComposer(plan.kind));
    const dbIds = storeDbs(a.storeRoot).map((path) => relative(a.storeRoot, path).split(/[\\/]/)[2]);
    const withDb = a.plans.filter((p) => p.kind === 'merged-db' || p.kind === 'store-db').map((p) => p.id);
    expect(dbIds.sort()).toEqual(withDb.sort());
    for (const plan of a.plans.filter((p) => p.kind !== 'composer' && p.kind !== 'merged-db'))
      expect(statSync(transcriptPath(a.storeRoot, plan.workspaceFsPath, plan.id)).size).toBeGreaterThan(0);
    const none = buildBenchCorpus(join(work, 'd'), { ...options, storeShare: 0 });
    expect(none.stats.kinds.composer).toBe(options.sessions);
    expect(files(none.storeRoot)).toEqual([]);
  });

  it('follows the shape options: merged share, Store message count, tool and large-result shares, journal mode', () => {
    const shaped = buildBenchCorpus(join(work, 'shaped'), {
      ...options,
      sessions: 40,
      messages: 6,
      storeShare: 0.5,
      mergedShare: 1,
      storeMessages: 4,
      toolShare: 1,
      largeResultShare: 1,
      journalMode: 'delete',
    });
    expect(shaped.stats.kinds['merged-db'] + shaped.stats.kinds['merged-transcript']).toBe(20);
    expect(shaped.stats.kinds['store-db'] + shaped.stats.kinds['store-transcript']).toBe(0);
    const db = new Database(globalDb(shaped.userDir), { readonly: true });
    const mode = db.pragma('journal_mode', { simple: true });
    const assistants = (
      db.prepare("SELECT value FROM cursorDiskKV WHERE key LIKE 'bubbleId:%'").all() as { value: string }[]
    )
      .map((row) => JSON.parse(row.value) as { type: number; toolFormerData?: { result?: string } })
      .filter((v) => v.type === 2);
    db.close();
    expect(mode).toBe('delete');
    expect(assistants.length).toBeGreaterThan(0);
    const results = assistants.map((bubble) => bubble.toolFormerData?.result ?? '');
    expect(results.filter((r) => r.startsWith('{"contents"')).length).toBeGreaterThan(assistants.length / 2);
    for (const r of results) if (!r.startsWith('{"error"')) expect(r.length).toBeGreaterThan(20_000);
    const storeOnly = buildBenchCorpus(join(work, 'store-only'), {
      ...options,
      storeShare: 1,
      mergedShare: 0,
      storeMessages: 2,
    });
    expect(storeOnly.stats.kinds.composer + storeOnly.stats.kinds['merged-db']).toBe(0);
    for (const plan of storeOnly.plans) expect(plan.messages).toBeLessThanOrEqual(3);
  });

  it('reports the rows and bytes actually stored, per representation', () => {
    const db = new Database(globalDb(a.userDir), { readonly: true });
    const bubbles = db
      .prepare("SELECT count(*) AS n FROM cursorDiskKV WHERE key LIKE 'bubbleId:%'")
      .get() as {
      n: number;
    };
    db.close();
    expect(bubbles.n).toBe(a.stats.composer.bubbles);
    expect(a.stats.composer.sessions).toBe(composerIds(a.userDir).length);
    let blobs = 0;
    let blobBytes = 0;
    for (const path of storeDbs(a.storeRoot)) {
      const store = new Database(path, { readonly: true });
      const row = store.prepare('SELECT count(*) AS n, total(length(data)) AS bytes FROM blobs').get() as {
        n: number;
        bytes: number;
      };
      store.close();
      blobs += row.n;
      blobBytes += row.bytes;
    }
    expect([a.stats.store.dbs, a.stats.store.blobs, a.stats.store.blobBytes]).toEqual([4, blobs, blobBytes]);
    const transcripts = files(a.storeRoot).filter((file) => file.endsWith('.jsonl'));
    const lines = transcripts.map(
      (file) => readFileSync(join(a.storeRoot, file), 'utf8').split('\n').length - 1,
    );
    expect(a.stats.store.transcripts).toBe(transcripts.length);
    expect(a.stats.store.transcriptLines).toBe(lines.reduce((x, y) => x + y, 0));
    const onDisk = [
      ...files(a.userDir).map((f) => join(a.userDir, f)),
      ...files(a.storeRoot).map((f) => join(a.storeRoot, f)),
    ];
    // Read-only opens in this test leave -wal/-shm sidecars; the corpus itself is written without them.
    const written = onDisk.filter((path) => !/-(wal|shm)$/.test(path));
    expect(a.stats.sourceBytes).toBe(written.reduce((sum, path) => sum + statSync(path).size, 0));
  });

  it('writes user texts of 200 B–4 KB, assistant thinking blocks and protobuf-wrapped Store assistant turns', () => {
    const db = new Database(globalDb(a.userDir), { readonly: true });
    const values = (
      db.prepare("SELECT value FROM cursorDiskKV WHERE key LIKE 'bubbleId:%'").all() as { value: string }[]
    ).map((row) => JSON.parse(row.value) as { type: number; text: string; thinking?: unknown });
    db.close();
    const users = values.filter((v) => v.type === 1);
    expect(users.length).toBeGreaterThan(0);
    for (const user of users) {
      expect(Buffer.byteLength(user.text)).toBeGreaterThanOrEqual(200);
      expect(user.text.length).toBeLessThanOrEqual(4000);
    }
    expect(values.some((v) => v.thinking !== undefined)).toBe(true);
    const store = new Database(storeDbs(a.storeRoot)[0]!, { readonly: true });
    const first = store.prepare('SELECT substr(data, 1, 1) AS b FROM blobs').all() as { b: Buffer }[];
    store.close();
    expect(first.some((row) => row.b[0] === 0x08)).toBe(true);
    expect(first.some((row) => row.b[0] === 0x7b)).toBe(true);
  });

  it('appendBubble adds one bubble row and its header to the case-4 session', () => {
    const session = oneBubbleSession(b);
    expect(session.kind).toBe('composer');
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

  it('appendTranscriptTurn appends three frames to the case-5 transcript and keeps its prefix', () => {
    const session = growingTranscriptSession(b)!;
    expect(session.kind).toBe('store-transcript');
    const path = transcriptPath(b.storeRoot, session.workspaceFsPath, session.id);
    const before = readFileSync(path);
    appendTranscriptTurn(b.storeRoot, session, 5);
    const after = readFileSync(path);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    const added = after.subarray(before.length).toString('utf8').trimEnd().split('\n');
    expect(
      added.map((line) => (JSON.parse(line) as { role?: string; type?: string }).role ?? 'turn_ended'),
    ).toEqual(['user', 'assistant', 'turn_ended']);
  });
});
