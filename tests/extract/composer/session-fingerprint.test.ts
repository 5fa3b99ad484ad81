import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { writeComposer } from '../../../fixtures/composer/composer-session.js';
import {
  json,
  rawBytes,
  rawText,
  StateDbBuilder,
  sqlNull,
} from '../../../fixtures/composer/state-db-builder.js';
import { ComposerAdapter } from '../../../src/extract/composer/composer-adapter.js';
import type { ComposerGlobalBytesContribution } from '../../../src/extract/composer/composer-contribution.js';
import { SESSION_STATS_SQL } from '../../../src/extract/composer/global-catalog.js';
import {
  fingerprintOf,
  LazyFingerprint,
  UNREADABLE_FINGERPRINT,
} from '../../../src/extract/composer/session-fingerprint.js';
import { DEFAULT_READ_LIMITS, type ReadLimits } from '../../../src/extract/limits/read-limits.js';
import { createReadContext } from '../../../src/extract/read-context.js';
import type { SessionOccurrence } from '../../../src/extract/source-adapter.js';
import { PrivateTempDir } from '../../../src/shared/temp/private-temp-dir.js';
import { tempDir } from '../../helpers/run-cli.js';

const PLAIN = 'f1000000-0000-4000-8000-000000000001';
const ODD_ROWS = 'f1000000-0000-4000-8000-000000000002';
const NO_DOC = 'f1000000-0000-4000-8000-000000000003';
const NULL_DOC = 'f1000000-0000-4000-8000-000000000004';
const BIG = 'f1000000-0000-4000-8000-000000000005';

function writeGlobal(userDir: string): void {
  const db = new StateDbBuilder(join(userDir, 'globalStorage', 'state.vscdb'));
  writeComposer(db, {
    id: PLAIN,
    bubbles: [
      { id: 'p1', role: 'user', text: 'hello' },
      { id: 'p2', role: 'assistant', text: 'héllo wörld ✓' },
    ],
  });
  writeComposer(db, { id: ODD_ROWS, bubbles: [{ id: 'o1', role: 'user', text: 'first' }] });
  db.bubble(ODD_ROWS, 'o2', sqlNull, 9_000)
    .bubble(ODD_ROWS, 'o3', rawBytes(new Uint8Array([0xff, 0xfe])), 12_345)
    .bubble(ODD_ROWS, 'o4', rawText('not json'), 700)
    .bubble(NO_DOC, 'n1', json({ type: 1, text: 'orphan' }))
    .composerData(NULL_DOC, sqlNull)
    .bubble(NULL_DOC, 'd1', json({ type: 1, text: 'kept' }));
  writeComposer(db, {
    id: BIG,
    bubbles: [
      { id: 'b1', role: 'user', text: 'short' },
      { id: 'b2', role: 'assistant', text: 'x'.repeat(5_000) },
    ],
  });
  db.close();
}

const adapters: ComposerAdapter[] = [];
const temps: PrivateTempDir[] = [];
afterEach(() => {
  for (const adapter of adapters.splice(0)) adapter.close();
  for (const temp of temps.splice(0)) temp.dispose();
});

async function catalog(userDir: string, limits: ReadLimits) {
  const temp = PrivateTempDir.create();
  temps.push(temp);
  const ctx = createReadContext({ limits, temp, includeCrossWorkspaceSources: false });
  const adapter = new ComposerAdapter();
  adapters.push(adapter);
  const occurrences: SessionOccurrence[] = [];
  const roots = {
    cursorUserDir: userDir,
    cursorStoreRoot: null,
    inputs: [],
    backups: [],
    carrier: 'live' as const,
  };
  for (const source of await adapter.discover(roots))
    for await (const occurrence of adapter.catalog(source, ctx)) occurrences.push(occurrence);
  return { adapter, ctx, occurrences };
}

/** Fingerprints as the ledger stores them: after hydration (when hydrated) or from a fresh catalog. */
async function fingerprints(
  userDir: string,
  limits: ReadLimits,
  hydrate: boolean,
): Promise<Map<string, string>> {
  const { adapter, ctx, occurrences } = await catalog(userDir, limits);
  const result = new Map<string, string>();
  for (const occurrence of occurrences) {
    if (hydrate) await adapter.hydrate(occurrence, ctx);
    result.set(occurrence.sessionId, occurrence.sessionFingerprint!);
  }
  return result;
}

describe('global session fingerprints', () => {
  it('a hydrated session stores byte-for-byte the fingerprint the next catalog computes (NULL, odd rowids, undecodable, orphan and NULL-doc sessions)', async () => {
    const userDir = join(tempDir('etl-fingerprint-'), 'User');
    writeGlobal(userDir);
    const afterHydration = await fingerprints(userDir, DEFAULT_READ_LIMITS, true);
    const nextCatalog = await fingerprints(userDir, DEFAULT_READ_LIMITS, false);
    expect([...afterHydration.keys()].sort()).toEqual([PLAIN, ODD_ROWS, NO_DOC, NULL_DOC, BIG].sort());
    expect(afterHydration).toEqual(nextCatalog);
    expect(new Set(afterHydration.values()).size).toBe(5);
  });

  it('a read cut short by a limit still stores the catalog fingerprint', async () => {
    const userDir = join(tempDir('etl-fingerprint-'), 'User');
    writeGlobal(userDir);
    const limits = { ...DEFAULT_READ_LIMITS, sqliteValueBytes: 4096 };
    const { adapter, ctx, occurrences } = await catalog(userDir, limits);
    const big = occurrences.find((o) => o.sessionId === BIG)!;
    const contribution = (await adapter.hydrate(big, ctx)) as ComposerGlobalBytesContribution;
    expect(contribution.data.readFailure?.code).toBe('SOURCE_LIMIT_EXCEEDED');
    expect(big.sessionFingerprint).toBe((await fingerprints(userDir, limits, false)).get(BIG));
  });

  it('a bubble written again the way Cursor writes (an INSERT on its key: a new rowid) changes only that session fingerprint, even with the same value', async () => {
    const userDir = join(tempDir('etl-fingerprint-'), 'User');
    writeGlobal(userDir);
    const before = await fingerprints(userDir, DEFAULT_READ_LIMITS, true);
    const db = new StateDbBuilder(join(userDir, 'globalStorage', 'state.vscdb'));
    db.bubble(PLAIN, 'p1', json({ type: 1, text: 'hello' }));
    db.close();
    const after = await fingerprints(userDir, DEFAULT_READ_LIMITS, false);
    for (const [id, fingerprint] of before) expect(after.get(id) === fingerprint).toBe(id !== PLAIN);
  });

  it('a bubble updated in place with its composerData written again changes only that session fingerprint', async () => {
    const userDir = join(tempDir('etl-fingerprint-'), 'User');
    writeGlobal(userDir);
    const before = await fingerprints(userDir, DEFAULT_READ_LIMITS, true);
    const db = new StateDbBuilder(join(userDir, 'globalStorage', 'state.vscdb'));
    db.db
      .prepare('UPDATE cursorDiskKV SET value = ? WHERE key = ?')
      .run(JSON.stringify({ type: 1, text: 'edited, longer' }), `bubbleId:${BIG}:b1`);
    const doc = db.db.prepare('SELECT value FROM cursorDiskKV WHERE key = ?').get(`composerData:${BIG}`) as {
      value: string;
    };
    db.composerData(BIG, rawText(doc.value));
    db.close();
    const after = await fingerprints(userDir, DEFAULT_READ_LIMITS, false);
    for (const [id, fingerprint] of before) expect(after.get(id) === fingerprint).toBe(id !== BIG);
  });

  it('a hydrated session stores the content digest a later content query computes, and only the content digest sees a same-length in-place UPDATE', async () => {
    const userDir = join(tempDir('etl-fingerprint-'), 'User');
    writeGlobal(userDir);
    const contents = async (hydrate: boolean) => {
      const { adapter, ctx, occurrences } = await catalog(userDir, DEFAULT_READ_LIMITS);
      const result = new Map<string, [string, string | null]>();
      for (const occurrence of occurrences) {
        if (hydrate) await adapter.hydrate(occurrence, ctx);
        // Before a hydration the content is unknown unless asked for.
        if (!hydrate) expect(occurrence.contentFingerprint!(false)).toBeNull();
        result.set(occurrence.sessionId, [
          occurrence.sessionFingerprint!,
          occurrence.contentFingerprint!(!hydrate),
        ]);
      }
      return result;
    };
    const hydrated = await contents(true);
    expect(await contents(false)).toEqual(hydrated);
    expect(new Set([...hydrated.values()].map(([, content]) => content)).size).toBe(5);
    const db = new StateDbBuilder(join(userDir, 'globalStorage', 'state.vscdb'));
    db.db
      .prepare('UPDATE cursorDiskKV SET value = ? WHERE key = ?')
      .run(JSON.stringify({ type: 1, text: 'hellO' }), `bubbleId:${PLAIN}:p1`);
    db.close();
    const after = await contents(false);
    for (const [id, [stats, content]] of hydrated) {
      expect(after.get(id)![0]).toBe(stats);
      expect(after.get(id)![1] === content).toBe(id !== PLAIN);
    }
  });

  it('codeBlockDiff rows: hydration and catalog agree; an INSERT moves the fingerprint, a same-length UPDATE only the content digest, of that session alone', async () => {
    const userDir = join(tempDir('etl-fingerprint-'), 'User');
    writeGlobal(userDir);
    const path = join(userDir, 'globalStorage', 'state.vscdb');
    const diff = (start: number) => ({
      newModelDiffWrtV0: [
        { original: { startLineNumber: start, endLineNumberExclusive: 9 }, modified: ['a'] },
      ],
    });
    let db = new StateDbBuilder(path);
    db.put('cursorDiskKV', `codeBlockDiff:${PLAIN}:d1`, json(diff(3)));
    db.close();
    const evidence = async (hydrate: boolean) => {
      const { adapter, ctx, occurrences } = await catalog(userDir, DEFAULT_READ_LIMITS);
      const result = new Map<string, [string, string | null]>();
      for (const occurrence of occurrences) {
        if (hydrate) await adapter.hydrate(occurrence, ctx);
        result.set(occurrence.sessionId, [
          occurrence.sessionFingerprint!,
          occurrence.contentFingerprint!(true),
        ]);
      }
      return result;
    };
    const hydrated = await evidence(true);
    expect(await evidence(false)).toEqual(hydrated);
    db = new StateDbBuilder(path);
    db.db
      .prepare('UPDATE cursorDiskKV SET value = ? WHERE key = ?')
      .run(JSON.stringify(diff(4)), `codeBlockDiff:${PLAIN}:d1`);
    db.close();
    const updated = await evidence(false);
    for (const [id, [stats, content]] of hydrated) {
      expect(updated.get(id)![0]).toBe(stats);
      expect(updated.get(id)![1] === content).toBe(id !== PLAIN);
    }
    db = new StateDbBuilder(path);
    db.put('cursorDiskKV', `codeBlockDiff:${PLAIN}:d2`, json(diff(1)));
    db.close();
    const inserted = await evidence(false);
    for (const [id, [stats]] of hydrated) expect(inserted.get(id)![0] === stats).toBe(id !== PLAIN);
    expect(await evidence(true)).toEqual(inserted);
  });

  it('content digests from one pass over the table equal those a hydration stores, for sessions nested in another key range too', async () => {
    const userDir = join(tempDir('etl-fingerprint-'), 'User');
    writeGlobal(userDir);
    const db = new StateDbBuilder(join(userDir, 'globalStorage', 'state.vscdb'));
    writeComposer(db, { id: 'outer', bubbles: [{ id: 'x1', role: 'user', text: 'outer one' }] });
    writeComposer(db, { id: 'outer:inner', bubbles: [{ id: 'y1', role: 'user', text: 'inner one' }] });
    db.bubble('outer', 'x2', json({ type: 2, text: 'outer two' }));
    db.close();
    const digests = async (hydrate: boolean) => {
      const { adapter, ctx, occurrences } = await catalog(userDir, DEFAULT_READ_LIMITS);
      const result = new Map<string, string | null>();
      for (const occurrence of occurrences) {
        if (hydrate) await adapter.hydrate(occurrence, ctx);
        result.set(occurrence.sessionId, occurrence.contentFingerprint!(true));
      }
      return result;
    };
    const hydrated = await digests(true);
    expect([...hydrated.keys()]).toEqual(expect.arrayContaining(['outer', 'outer:inner']));
    expect(new Set(hydrated.values()).size).toBe(hydrated.size);
    expect(await digests(false)).toEqual(hydrated);
  });

  it('the stats query of a session reads only the key index of the real DDL, never a table row', () => {
    const userDir = join(tempDir('etl-fingerprint-'), 'User');
    writeGlobal(userDir);
    const db = new StateDbBuilder(join(userDir, 'globalStorage', 'state.vscdb'));
    const plan = db.db
      .prepare(`EXPLAIN QUERY PLAN ${SESSION_STATS_SQL}`)
      .all('bubbleId:a:', 'bubbleId:a;', 11, 'bubbleId:a:') as { detail: string }[];
    db.close();
    expect(plan.map((step) => step.detail)).toEqual([
      expect.stringMatching(/^SEARCH cursorDiskKV USING COVERING INDEX sqlite_autoindex_cursorDiskKV_1 /),
    ]);
  });

  it('evidence SQLite cannot read is unknown, never a guess, and never kept: the session is read again', () => {
    const damaged = (): never => {
      throw new Database.SqliteError('database disk image is malformed', 'SQLITE_CORRUPT');
    };
    const stats = {
      rows: 1,
      maxRowid: 1,
      rowidSum: 1,
      docRowid: 2,
      docBytes: 10,
      diffRows: 0,
      diffRowidSum: 0,
    };
    let readable = false;
    const fingerprint = new LazyFingerprint(
      { stats: () => (readable ? stats : damaged()), content: () => damaged() },
      PLAIN,
    );
    expect(fingerprint.get()).toBe(UNREADABLE_FINGERPRINT);
    expect(fingerprint.content(true)).toBeNull();
    readable = true;
    expect(fingerprint.get()).toBe(fingerprintOf(stats));
    const failing = new LazyFingerprint(
      {
        stats: () => {
          throw new Error('a bug of ours');
        },
        content: () => 'x',
      },
      PLAIN,
    );
    expect(() => failing.get()).toThrow('a bug of ours');
  });
});
