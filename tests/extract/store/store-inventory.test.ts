import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { compactSessionId, inventoryStoreRoot } from '../../../src/extract/store/store-inventory.js';
import { unlistableStoreDirectories } from '../../../src/extract/store/store-source-diagnostics.js';
import { denied, statted } from '../../helpers/denied-fs.js';
import { tempDir } from '../../helpers/run-cli.js';

vi.mock('node:fs', async (original) =>
  (await import('../../helpers/denied-fs.js')).deniedFs(await original()),
);

const base = tempDir('etl-store-inventory-');
afterAll(() => rmSync(base, { recursive: true, force: true }));
let count = 0;

/** A fresh Store root with one project's agent-transcripts dir, and a file outside the root. */
function storeRoot(): { root: string; transcripts: string; outside: string } {
  const dir = join(base, String(count++));
  const root = join(dir, 'store');
  const transcripts = join(root, 'projects', 'home-dev-repo', 'agent-transcripts');
  mkdirSync(transcripts, { recursive: true });
  const outside = join(dir, 'outside.jsonl');
  writeFileSync(outside, '{"role":"user","message":{"content":"hi"}}\n');
  return { root, transcripts, outside };
}

describe('Store inventory of entries that are not regular files', () => {
  it('records every transcript-named entry with why it cannot be read, instead of skipping it', () => {
    const { root, transcripts, outside } = storeRoot();
    const nested = (id: string): string => {
      mkdirSync(join(transcripts, id));
      return join(transcripts, id, `${id}.jsonl`);
    };
    execFileSync('mkfifo', [nested('fifo')]);
    execFileSync('mkfifo', [join(transcripts, 'flat-fifo.jsonl')]);
    symlinkSync('/dev/zero', nested('device'));
    symlinkSync(nested('loop'), join(transcripts, 'loop', 'loop.jsonl'));
    symlinkSync(join(transcripts, 'gone'), nested('dangling'));
    symlinkSync(outside, nested('outside'));
    mkdirSync(nested('directory'));
    writeFileSync(join(root, 'inside.jsonl'), '{}\n');
    symlinkSync(join(root, 'inside.jsonl'), nested('inside'));
    writeFileSync(nested('regular'), '{}\n');
    const problems = Object.fromEntries(
      inventoryStoreRoot(root).transcripts.map((t) => [t.sessionId, t.problem]),
    );
    expect(problems).toEqual({
      dangling: 'ENOENT',
      device: 'outside-store-root',
      directory: 'not-a-regular-file',
      fifo: 'not-a-regular-file',
      'flat-fifo': 'not-a-regular-file',
      inside: null,
      loop: 'ELOOP',
      outside: 'outside-store-root',
      regular: null,
    });
  });

  it('stats no entry its listing already typed as a regular file, and still checks a link', () => {
    const { root, transcripts, outside } = storeRoot();
    const dir = join(root, 'chats', 'c'.repeat(32), 'sess');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'store.db'), '');
    mkdirSync(join(transcripts, 'plain'));
    writeFileSync(join(transcripts, 'plain', 'plain.jsonl'), '{}\n');
    writeFileSync(join(transcripts, 'flat.jsonl'), '{}\n');
    mkdirSync(join(transcripts, 'linked'));
    symlinkSync(outside, join(transcripts, 'linked', 'linked.jsonl'));
    statted.length = 0;
    const inventory = inventoryStoreRoot(root);
    expect(inventory.sessionDirs.map((d) => [d.sessionId, d.dbProblem])).toEqual([['sess', null]]);
    expect(inventory.transcripts.map((t) => [t.sessionId, t.problem])).toEqual([
      ['flat', null],
      ['linked', 'outside-store-root'],
      ['plain', null],
    ]);
    expect(statted).toEqual([join(transcripts, 'linked', 'linked.jsonl')]);
  });

  it('refuses a store.db linked outside the Store root and reports a meta.json that is not a file', () => {
    const { root, outside } = storeRoot();
    const dir = join(root, 'chats', 'a'.repeat(32), 'sess');
    mkdirSync(dir, { recursive: true });
    symlinkSync(outside, join(dir, 'store.db'));
    execFileSync('mkfifo', [join(dir, 'meta.json')]);
    const [entry] = inventoryStoreRoot(root).sessionDirs;
    expect(entry).toMatchObject({ dbProblem: 'outside-store-root', meta: { problem: 'not-a-regular-file' } });
  });
});

describe('Store inventory of directories it may not list', () => {
  /** A session dir with a store.db, and a transcript whose project slug names its cwd. */
  function populated(): { root: string; sessionDir: string } {
    const { root, transcripts } = storeRoot();
    const sessionDir = join(root, 'chats', 'b'.repeat(32), 'sess');
    mkdirSync(sessionDir, { recursive: true });
    writeFileSync(join(sessionDir, 'store.db'), '');
    writeFileSync(join(transcripts, 'other.jsonl'), '{}\n');
    denied.clear();
    return { root, sessionDir };
  }

  it('a readable tree has nothing unlistable', () => {
    const inventory = inventoryStoreRoot(populated().root);
    expect(inventory.unlistable).toEqual([]);
    expect(inventory.sessionDirs.map((d) => d.sessionId)).toEqual(['sess']);
  });

  it('records a denied session directory or projects/ instead of reading it as empty', () => {
    const { root, sessionDir } = populated();
    denied.set(sessionDir, 'EACCES');
    denied.set(join(root, 'projects'), 'EACCES');
    const inventory = inventoryStoreRoot(root);
    expect(inventory.sessionDirs).toEqual([]);
    expect(inventory.transcripts).toEqual([]);
    expect(inventory.unlistable).toEqual(['EACCES', 'EACCES']);
  });

  it('reports them as one diagnostic per errno, with a count and no path', () => {
    const { root, sessionDir } = populated();
    denied.set(sessionDir, 'EACCES');
    denied.set(join(root, 'projects'), 'EACCES');
    const diagnostics = unlistableStoreDirectories(inventoryStoreRoot(root).unlistable);
    expect(diagnostics.map((d) => [d.code, d.details])).toEqual([
      [
        'SOURCE_UNREADABLE',
        { sourceKind: 'store', part: 'directory', reason: 'EACCES', count: 2, outcome: 'partial' },
      ],
    ]);
    expect(JSON.stringify(diagnostics)).not.toContain(root);
  });
});

describe('Store inventory of names that are not UTF-8 ("not guessed, transcoded, or replacement-decoded")', () => {
  const raw = (dir: string, ...name: (string | number[])[]): Buffer =>
    Buffer.concat([Buffer.from(`${dir}/`), ...name.map((p) => Buffer.from(p as never))]);

  it('leaves out a session directory or transcript whose name is not UTF-8 and records it, keeping a real U+FFFD name', () => {
    const { root, transcripts } = storeRoot();
    const bucket = join(root, 'chats', 'bucket');
    for (const name of [Buffer.from(`${bucket}/good`), raw(bucket, 'ok\uFFFD'), raw(bucket, 'bad', [0xff])]) {
      mkdirSync(name, { recursive: true });
      writeFileSync(Buffer.concat([name, Buffer.from('/store.db')]), '');
    }
    writeFileSync(join(transcripts, 'fine.jsonl'), '{}\n');
    writeFileSync(raw(transcripts, 'half', [0xc3], '.jsonl'), '{}\n');
    const inventory = inventoryStoreRoot(root);
    expect(inventory.sessionDirs.map((d) => d.sessionId)).toEqual(['good', 'ok\uFFFD']);
    expect(inventory.transcripts.map((t) => t.sessionId)).toEqual(['fine']);
    expect(inventory.unlistable).toEqual(['name-not-utf8', 'name-not-utf8']);
    const diagnostics = unlistableStoreDirectories(inventory.unlistable);
    expect(diagnostics.map((d) => [d.code, d.details])).toEqual([
      [
        'SOURCE_ENCODING_INVALID',
        { sourceKind: 'store', part: 'entry-name', problem: 'invalid-utf8', count: 2, outcome: 'partial' },
      ],
    ]);
    expect(JSON.stringify(diagnostics)).not.toContain(root);
  });
});

describe('compact Store directory names', () => {
  it('"Compact 32-hex Store directory names … follow the same byte-exact rule": re-dashed 8-4-4-4-12, letters as spelled', () => {
    expect(compactSessionId('9a0b1c2d3e4f40118a2b3c4d5e6f7081')).toBe('9a0b1c2d-3e4f-4011-8a2b-3c4d5e6f7081');
    expect(compactSessionId('ABCDEF01234546789ABCDEF012345678')).toBe('ABCDEF01-2345-4678-9ABC-DEF012345678');
    expect(compactSessionId('AbCdEF01234546789ABCDEF01234567a')).toBe('AbCdEF01-2345-4678-9ABC-DEF01234567a');
  });

  it('a name that is not 32 hex digits is not a compact session', () => {
    for (const name of [
      '0123456789abcdef0123456789abcdeg',
      '0123456789abcdef0123456789abcde',
      '9a0b1c2d-3e4f-4011-8a2b-3c4d5e6f7081',
    ])
      expect(compactSessionId(name)).toBeNull();
  });
});
