import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import {
  jsonLeaf,
  protobufLeaf,
  StoreDbBuilder,
  treeNode,
} from '../../../fixtures/store/store-db-builder.js';
import { SourceLimitExceeded } from '../../../src/extract/limits/limit-exceeded.js';
import { DEFAULT_READ_LIMITS, resolveReadLimits } from '../../../src/extract/limits/read-limits.js';
import { ReadCounters } from '../../../src/extract/read-counters.js';
import { walkTree } from '../../../src/extract/store/blob-tree.js';
import { decodeLeaf, decodeStoreDb } from '../../../src/extract/store/leaf-decode.js';
import { readStoreDb } from '../../../src/extract/store/store-db-reader.js';
import { decodeStoreMetaRow, StoreMetaInvalid } from '../../../src/extract/store/store-meta-row.js';
import { DiagnosticSink } from '../../../src/shared/diagnostic.js';

const dir = mkdtempSync(join(tmpdir(), 'store-db-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;
const facts = {
  meta: null,
  dbExpectation: 'expected' as const,
  parentSessionId: null,
  workspaceUncertain: false,
  inventoryComplete: true,
};

function env(limits = DEFAULT_READ_LIMITS) {
  return {
    limits,
    counters: new ReadCounters(),
    sink: new DiagnosticSink(),
    scope: { sessionId: 's', sourceRef: 'r' },
  };
}

/** What the session's resolution sees: a read DB's leaves decoded, a failed one as read. */
function readDecoded(db: Database.Database, e = env()) {
  const data = readStoreDb(db, facts, e);
  return 'leafBytes' in data ? decodeStoreDb(data) : data;
}

function newDb(): { builder: StoreDbBuilder; path: string } {
  const path = join(dir, `db${count++}.sqlite`);
  return { builder: new StoreDbBuilder(path), path };
}

describe('store.db tree walk', () => {
  it('walks leaves depth-first in order through 0x12 subtrees and skips unknown bytes', () => {
    const blobs = new Map<string, Uint8Array>();
    const put = (bytes: Uint8Array) => {
      const id = StoreDbBuilder.hashOf(bytes);
      blobs.set(id, bytes);
      return id;
    };
    const a = put(jsonLeaf({ n: 'a' }));
    const b = put(jsonLeaf({ n: 'b' }));
    const c = put(jsonLeaf({ n: 'c' }));
    const sub = put(treeNode([{ leaf: b }]));
    const root = put(
      treeNode([
        { raw: new Uint8Array([0x08, 0x01, 0x0a]) },
        { leaf: a },
        { subtree: sub },
        { leaf: c },
        { leaf: a },
      ]),
    );
    const walk = walkTree(root, (id) => blobs.get(id) ?? null);
    expect(walk.leaves).toEqual([a, b, c, a]);
    expect(walk.problems).toEqual([]);
  });

  it('stops a subtree cycle with the visited set and reports a missing subtree blob', () => {
    const blobs = new Map<string, Uint8Array>();
    const leaf = StoreDbBuilder.hashOf(jsonLeaf({ n: 1 }));
    const missing = 'ab'.repeat(32);
    const selfRef = treeNode([{ leaf }, { subtree: missing }]);
    const root = StoreDbBuilder.hashOf(selfRef);
    blobs.set(root, Buffer.concat([Buffer.from(selfRef), Buffer.from(treeNode([{ subtree: root }]))]));
    const walk = walkTree(root, (id) => blobs.get(id) ?? null);
    expect(walk.leaves).toEqual([leaf]);
    expect(walk.problems.sort()).toEqual(['missing-tree-blob', 'subtree-cycle']);
  });
  it('walks a 50 000-deep chain of subtrees without overflowing the stack', () => {
    const blobs = new Map<string, Uint8Array>();
    const put = (bytes: Uint8Array) => {
      const id = StoreDbBuilder.hashOf(bytes);
      blobs.set(id, bytes);
      return id;
    };
    const last = put(jsonLeaf({ n: 'last' }));
    const first = put(jsonLeaf({ n: 'first' }));
    let id = put(treeNode([{ leaf: last }]));
    for (let i = 0; i < 50_000; i++)
      id = put(treeNode([{ subtree: id }, { raw: new Uint8Array([i & 0xff]) }]));
    const root = put(treeNode([{ leaf: first }, { subtree: id }, { leaf: first }]));
    const walk = walkTree(root, (blob) => blobs.get(blob) ?? null);
    expect(walk.leaves).toEqual([first, last, first]);
    expect(walk.problems).toEqual([]);
  });
});

describe('store.db leaves', () => {
  it('decodes plain JSON (with a BOM) and protobuf field 4', () => {
    expect(decodeLeaf(Buffer.from('\uFEFF{"role":"user"}'))).toEqual({ role: 'user' });
    expect(decodeLeaf(protobufLeaf({ role: 'assistant', content: 'x'.repeat(300) }))).toMatchObject({
      role: 'assistant',
    });
    expect(decodeLeaf(Buffer.from([0x22, 0x05, 0x31, 0x32]))).toBeNull();
  });

  it('takes JSON after JSON whitespace, and only objects: arrays, scalars and a second BOM are not leaves', () => {
    expect(decodeLeaf(Buffer.from('\uFEFF \r\n\t{"role":"user"} '))).toEqual({ role: 'user' });
    expect(decodeLeaf(Buffer.from(' {"role":"user"}'))).toEqual({ role: 'user' });
    for (const text of ['[{"role":"user"}]', '"{}"', '\uFEFF\uFEFF{"role":"user"}', '\u00a0{"a":1}', ''])
      expect(decodeLeaf(Buffer.from(text))).toBeNull();
  });

  it('a leaf whose JSON escapes an unpaired surrogate is not a leaf (malformed), plain or in protobuf field 4', () => {
    expect(decodeLeaf(Buffer.from('{"role":"user","content":"a\\ud800"}'))).toBeNull();
    expect(decodeLeaf(protobufLeaf({ role: 'assistant', content: 'cut \ud83d' }))).toBeNull();
    expect(decodeLeaf(Buffer.from('{"role":"user","content":"\\ud83d\\ude00"}'))).toEqual({
      role: 'user',
      content: '😀',
    });
  });
});

describe('store.db meta row', () => {
  it('decodes lower- and upper-case hex and keeps only name, root, createdAt and lastUsedModel (never blobEncryptionKey)', () => {
    const json = JSON.stringify({
      name: 'T',
      latestRootBlobId: 'AB'.repeat(32),
      createdAt: 1783737832293,
      lastUsedModel: 'default',
      blobEncryptionKey: 'k',
    });
    const row = decodeStoreMetaRow(Buffer.from(json).toString('hex').toUpperCase());
    expect(row).toEqual({
      name: 'T',
      latestRootBlobId: 'ab'.repeat(32),
      createdAtMs: 1783737832293,
      timeProblems: [],
      subagent: null,
      lastUsedModel: { value: 'default', invalid: false },
    });
    expect(JSON.stringify(row)).not.toContain('blobEncryptionKey');
  });

  it('a lastUsedModel that is not a string is kept only as invalid; absent is null', () => {
    const hex = (meta: Record<string, unknown>) => Buffer.from(JSON.stringify(meta)).toString('hex');
    expect(decodeStoreMetaRow(hex({ lastUsedModel: { id: 1 } })).lastUsedModel).toEqual({
      value: null,
      invalid: true,
    });
    expect(decodeStoreMetaRow(hex({ name: 'x' })).lastUsedModel).toBeNull();
  });

  it('rejects odd length and non-hex characters', () => {
    expect(() => decodeStoreMetaRow('7b7')).toThrow(StoreMetaInvalid);
    expect(() => decodeStoreMetaRow('7g')).toThrow(expect.objectContaining({ reason: 'non-hex' }));
    expect(() => decodeStoreMetaRow('7b7')).toThrow(expect.objectContaining({ reason: 'odd-length' }));
  });

  it('rejects JSON that escapes an unpaired surrogate as invalid encoding', () => {
    const hex = Buffer.from('{"name":"a\\udc00"}').toString('hex');
    expect(() => decodeStoreMetaRow(hex)).toThrow(expect.objectContaining({ reason: 'invalid-encoding' }));
  });

  it('reads an absent or null root as no conversation, but rejects a root that is not a 64-hex blob ID', () => {
    const hex = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('hex');
    expect(decodeStoreMetaRow(hex({ name: 'n' })).latestRootBlobId).toBeNull();
    expect(decodeStoreMetaRow(hex({ latestRootBlobId: null })).latestRootBlobId).toBeNull();
    for (const root of ['', 'ab'.repeat(31), `${'ab'.repeat(32)}0`, 'zz'.repeat(32), 7, { id: 'ab' }])
      expect(() => decodeStoreMetaRow(hex({ latestRootBlobId: root }))).toThrow(
        expect.objectContaining({ reason: 'invalid-root-blob-id' }),
      );
  });
});

describe('store.db reader', () => {
  it('marks a missing leaf blob and a malformed leaf, and ignores unreachable blobs', () => {
    const { builder, path } = newDb();
    const good = builder.blob(jsonLeaf({ role: 'user', content: 'hi' }));
    builder.blob(jsonLeaf({ role: 'user', content: 'unreachable' }));
    const bad = builder.blob(Buffer.from('not json'));
    const missing = StoreDbBuilder.hashOf(jsonLeaf({ role: 'assistant', content: 'gone' }));
    const root = builder.blob(treeNode([{ leaf: good }, { leaf: missing }, { leaf: bad }]));
    builder.meta({ latestRootBlobId: root, name: 'n', createdAt: 1783737832293 });
    builder.close();
    const db = new Database(path, { readonly: true });
    const data = readDecoded(db);
    db.close();
    expect('leaves' in data && data.leaves.map((l) => l.problem)).toEqual([
      null,
      'missing-blob',
      'malformed-leaf',
    ]);
    expect(JSON.stringify(data)).not.toContain('unreachable');
  });

  it('hands the leaves over as read bytes, decoded in traversal order where the session is resolved', () => {
    const { builder, path } = newDb();
    const first = builder.blob(jsonLeaf({ role: 'user', content: 'hi' }));
    const second = builder.blob(protobufLeaf({ role: 'assistant', content: 'yes' }));
    const sealed = builder.blob(Buffer.from(Array.from({ length: 64 }, (_, i) => (i * 151 + 7) % 256)));
    const root = builder.blob(
      treeNode([{ leaf: second }, { leaf: first }, { leaf: sealed }, { leaf: second }]),
    );
    builder.meta({ latestRootBlobId: root });
    builder.close();
    const db = new Database(path, { readonly: true });
    const data = readStoreDb(db, facts, env());
    db.close();
    if (!('leafBytes' in data)) throw new Error('expected a read DB');
    expect(data.leafBytes.map((l) => [l.hash, l.bytes?.length])).toEqual([
      [second, protobufLeaf({ role: 'assistant', content: 'yes' }).length],
      [first, jsonLeaf({ role: 'user', content: 'hi' }).length],
      [sealed, 64],
      [second, protobufLeaf({ role: 'assistant', content: 'yes' }).length],
    ]);
    const { leafBytes: _bytes, ...rest } = data;
    const decoded = decodeStoreDb(data);
    expect(decoded).toMatchObject(rest);
    expect(decoded.leaves.map((l) => [l.message?.role ?? null, l.problem])).toEqual([
      ['assistant', null],
      ['user', null],
      [null, 'possibly-encrypted-leaf'],
      ['assistant', null],
    ]);
  });

  it('checks a blob against sqliteValueBytes before materializing it', () => {
    const { builder, path } = newDb();
    const big = builder.blob(jsonLeaf({ role: 'user', content: 'x'.repeat(2000) }));
    const root = builder.blob(treeNode([{ leaf: big }]));
    builder.meta({ latestRootBlobId: root });
    builder.close();
    const db = new Database(path, { readonly: true });
    const limits = resolveReadLimits({ sqliteValueBytes: 1024 });
    expect(() => readStoreDb(db, facts, env(limits))).toThrow(SourceLimitExceeded);
    db.close();
  });

  it('checks the meta row against sqliteValueBytes before materializing it', () => {
    const { builder, path } = newDb();
    builder.meta({ latestRootBlobId: null, name: 'x'.repeat(2000) });
    builder.close();
    const db = new Database(path, { readonly: true });
    const limits = resolveReadLimits({ sqliteValueBytes: 1024 });
    expect(() => readStoreDb(db, facts, env(limits))).toThrow(SourceLimitExceeded);
    expect(readDecoded(db)).toMatchObject({ status: 'read', title: 'x'.repeat(2000) });
    db.close();
  });

  it.each([
    ['no blobs table', 'DROP TABLE blobs', 'missing-tables'],
    [
      'a view named blobs',
      'DROP TABLE blobs; CREATE VIEW blobs AS SELECT 1 AS id, 2 AS data',
      'missing-tables',
    ],
    ['no meta table', 'DROP TABLE meta', 'missing-tables'],
    ['no meta row', "DELETE FROM meta WHERE key = '0'", 'missing-meta-row'],
    ['a NULL meta row', "UPDATE meta SET value = NULL WHERE key = '0'", 'missing-meta-row'],
  ])('fails (as data) on a store.db with %s', (_name, sql, failure) => {
    const { builder, path } = newDb();
    builder.meta({ latestRootBlobId: null });
    builder.db.exec(sql);
    builder.close();
    const db = new Database(path, { readonly: true });
    const e = env();
    expect(readDecoded(db, e)).toMatchObject({ status: 'failed', failure });
    expect(e.sink.items.map((d) => [d.code, d.details.reason])).toEqual([['SOURCE_UNREADABLE', failure]]);
    db.close();
  });

  /** Reads a store.db whose only content is the meta row written by `fill`. */
  function readMetaOnly(fill: (builder: StoreDbBuilder) => void) {
    const { builder, path } = newDb();
    fill(builder);
    builder.close();
    const db = new Database(path, { readonly: true });
    const e = env();
    const data = readDecoded(db, e);
    db.close();
    return { data, diagnostics: e.sink.items.map((d) => [d.code, d.details.reason]) };
  }

  it('reports a root blob ID that names no blob as a partial tree, not as an empty conversation', () => {
    const { data } = readMetaOnly((b) => b.meta({ latestRootBlobId: 'cd'.repeat(32) }));
    expect(data).toMatchObject({ status: 'read', leaves: [], treeProblems: ['missing-tree-blob'] });
  });

  it('fails (as data) on a root that is not a blob ID, with a typed diagnostic', () => {
    const { data, diagnostics } = readMetaOnly((b) => b.meta({ latestRootBlobId: 'not-a-hash' }));
    expect(data).toMatchObject({ status: 'failed', failure: 'invalid-meta-row' });
    expect(diagnostics).toEqual([['STORE_META_INVALID', 'invalid-root-blob-id']]);
  });

  it('fails (as data) on an invalid hex meta row without throwing', () => {
    const { data, diagnostics } = readMetaOnly((b) => b.metaRaw('xyz'));
    expect(data).toMatchObject({ status: 'failed', failure: 'invalid-meta-row' });
    expect(diagnostics).toEqual([['STORE_META_INVALID', 'odd-length']]);
  });
});
