/**
 * Row provenance end to end: every stored locator, read back in the source it names, holds the
 * content the row holds; merged rows list both sources; no locator holds a physical path.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { writeBackup } from '../../fixtures/backup/backup-builder.js';
import * as cli from '../../fixtures/capture/cli-captures.js';
import * as cloud from '../../fixtures/capture/cloud-captures.js';
import * as markdown from '../../fixtures/capture/markdown-captures.js';
import { writeCapture } from '../../fixtures/capture/write-capture.js';
import { buildStoreMatrix, IDS, MERGED_COMPOSER } from '../../fixtures/store/store-matrix.js';
import { runCli, tempDir } from '../helpers/run-cli.js';

type Row = Record<string, unknown>;

interface Provenance {
  session_id: string;
  row_kind: 'message' | 'tool_call';
  row_id: string;
  representation: string;
  locator: string;
  frame_index: number | null;
  chosen: boolean;
  content: string;
  thinking: string | null;
  name: string | null;
  origin: string | null;
}

function load(args: string[], target: string): Provenance[] {
  const run = runCli(['run', '--json', ...args, '--target', target]);
  expect(run.code, run.stderr).toBe(0);
  const sql = `SELECT p.session_id, p.row_kind, p.row_id, i.representation, p.locator, p.frame_index, p.chosen,
      coalesce(m.content, tm.content) AS content, coalesce(m.thinking, tm.thinking) AS thinking, t.name,
      coalesce(m.origin, tm.origin) AS origin
    FROM row_provenance p
    JOIN source_instances i USING (session_id, instance_ordinal)
    LEFT JOIN messages m ON p.row_kind = 'message' AND m.session_id = p.session_id AND m.message_id = p.row_id
    LEFT JOIN tool_calls t ON p.row_kind = 'tool_call' AND t.session_id = p.session_id AND t.archive_key = p.row_id
    LEFT JOIN messages tm ON tm.session_id = t.session_id AND tm.message_id = t.message_id
    ORDER BY p.session_id, p.row_kind, p.row_id, p.instance_ordinal, p.locator`;
  const query = runCli(['query', '--json', '--target', target, sql]);
  expect(query.code, query.stderr).toBe(0);
  return JSON.parse(query.stdout).rows.map((r: Row) => ({
    ...r,
    frame_index: r.frame_index === null ? null : Number(r.frame_index),
  })) as Provenance[];
}

function uncovered(target: string): number {
  const sql = `SELECT (SELECT count(*) FROM messages m WHERE NOT EXISTS (SELECT 1 FROM row_provenance p
      WHERE p.session_id = m.session_id AND p.row_kind = 'message' AND p.row_id = m.message_id AND p.chosen))
    + (SELECT count(*) FROM tool_calls t WHERE NOT EXISTS (SELECT 1 FROM row_provenance p
      WHERE p.session_id = t.session_id AND p.row_kind = 'tool_call' AND p.row_id = t.archive_key AND p.chosen)) AS n`;
  return Number(JSON.parse(runCli(['query', '--json', '--target', target, sql]).stdout).rows[0].n);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** A piece of the row's text that any encoding of the record spells verbatim (no escapes). */
function probe(text: string): string {
  const line =
    text
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.length > 0 && !l.startsWith('<')) ?? '';
  return line.replace(/["\\].*$/, '').slice(0, 16);
}

/** The text of a row a record must hold: the message (or its thinking), or the tool call's name. */
function expected(row: Provenance): string[] {
  if (row.row_kind === 'tool_call') return [row.name ?? ''];
  return [row.content, row.thinking ?? ''].map(probe).filter((p) => p.length > 0);
}

function holds(record: string, row: Provenance): boolean {
  const wanted = expected(row);
  return wanted.length === 0 || wanted.some((w) => record.includes(w));
}

/** JSONL/line sources: the frame at `n` holds the row's text (a delta holds a piece of it). */
function frameHolds(lines: string[], n: number, row: Provenance): boolean {
  const line = lines[n] ?? '';
  if (holds(line, row)) return true;
  const strings: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string' && v.trim().length > 0) strings.push(v);
    else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) walk(x);
  };
  try {
    walk(JSON.parse(line));
  } catch {
    return false;
  }
  const whole = `${row.content}${row.thinking ?? ''}`;
  return strings.some((s) => whole.includes(s) || s === row.name);
}

function keyValue(dbPath: string, table: string, key: string): string | null {
  const db = new Database(dbPath, { readonly: true });
  try {
    const row = db.prepare(`SELECT value FROM ${table} WHERE key = ?`).get(key) as
      | { value: unknown }
      | undefined;
    return row === undefined ? null : Buffer.from(row.value as string).toString('utf8');
  } finally {
    db.close();
  }
}

function blob(storeRoot: string, id: string): string | null {
  for (const path of filesUnder(storeRoot).filter((p) => p.endsWith('store.db'))) {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      const row = db.prepare('SELECT data FROM blobs WHERE id = ?').get(id) as { data: Buffer } | undefined;
      if (row) return row.data.toString('latin1') + Buffer.from(row.data).toString('utf8');
    } catch {
      // Not a readable database (the matrix plants a corrupt one).
    } finally {
      db.close();
    }
  }
  return null;
}

function zipEntry(archive: string, name: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    yauzl.open(archive, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName !== name) return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            zip.close();
            resolve(Buffer.concat(chunks));
          });
        });
      });
      zip.on('end', () => reject(new Error(`no entry ${name}`)));
      zip.readEntry();
    });
  });
}

describe('row_provenance: every locator reads back to the stored content', { timeout: 240_000 }, () => {
  const root = tempDir();
  const storeRoot = join(root, 'store');
  const userDir = join(root, 'User');
  const captures = join(root, 'captures');
  let live: Provenance[] = [];
  let backup: Provenance[] = [];
  let backupPath = '';
  const captureFiles: Record<string, string> = {};

  beforeAll(() => {
    buildStoreMatrix(storeRoot, userDir);
    captureFiles.cli = writeCapture(captures, 'cli/partial.ndjson', cli.partialDeltas());
    captureFiles.cliBasic = writeCapture(captures, 'cli/basic.ndjson', cli.completeBasic());
    captureFiles.cloud = writeCapture(captures, 'cloud/finished.ndjson', cloud.finishedCapture());
    captureFiles.sse = writeCapture(captures, 'cloud/run.sse', cloud.finishedSse('run-0000-0042'));
    captureFiles.exportChat = writeCapture(captures, 'md/export.md', markdown.exportChat());
    captureFiles.specstory = writeCapture(captures, 'md/spec.md', markdown.specStoryV2());
    const target = `duckdb:${join(root, 'live.duckdb')}`;
    live = load(
      [
        '--cursor-user-dir',
        userDir,
        '--cursor-store-root',
        storeRoot,
        ...Object.values(captureFiles).flatMap((f) => ['--input', f]),
      ],
      target,
    );
    expect(uncovered(target)).toBe(0);
    backupPath = writeBackup(join(root, 'archive.zip'), {
      global: [MERGED_COMPOSER],
      workspaces: [
        {
          id: 'ws-1',
          folder: '/home/dev/inline-app',
          inline: [
            { ...MERGED_COMPOSER, id: 'inline-0000-0001', bubbles: MERGED_COMPOSER.bubbles.slice(0, 3) },
          ],
        },
      ],
    });
    const backupTarget = `duckdb:${join(root, 'backup.duckdb')}`;
    backup = load(['--backup', backupPath], backupTarget);
    expect(uncovered(backupTarget)).toBe(0);
  });

  const representations = (rows: Provenance[]) => new Set(rows.map((r) => r.representation));

  it('covers every source kind', () => {
    expect([...representations(live)].sort()).toEqual(
      expect.arrayContaining([
        'cli-stream',
        'cloud-capture',
        'composer-global',
        'markdown-export',
        'store-db',
        'store-transcript',
      ]),
    );
    expect([...representations(backup)].sort()).toEqual(['composer-global', 'composer-workspace']);
  });

  it('a Composer locator is the cursorDiskKV key whose bubble holds the row', () => {
    const rows = live.filter((r) => r.representation === 'composer-global');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const key = row.locator.replace(/^composer:global:/, '');
      expect(key).toMatch(/^bubbleId:/);
      const value = keyValue(join(userDir, 'globalStorage', 'state.vscdb'), 'cursorDiskKV', key);
      expect(value, row.locator).not.toBeNull();
      if (row.chosen) expect(holds(value!, row), row.locator).toBe(true);
      expect(row.frame_index).toBeNull();
    }
  });

  it('a Store locator is the blob whose leaf holds the row', () => {
    const rows = live.filter((r) => r.representation === 'store-db');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const id = /^store-db:blob:([0-9a-f]{64})$/.exec(row.locator)?.[1];
      expect(id, row.locator).toBeDefined();
      const data = blob(storeRoot, id!);
      expect(data, row.locator).not.toBeNull();
      if (row.chosen) expect(holds(data!, row), row.locator).toBe(true);
    }
  });

  it('a transcript locator is the zero-based frame (or text line) that holds the row', () => {
    const rows = live.filter((r) => r.representation === 'store-transcript');
    expect(rows.length).toBeGreaterThan(0);
    const files = filesUnder(storeRoot).filter((p) => /\.(jsonl|txt)$/.test(p));
    for (const row of rows) {
      const file = files.find(
        (p) => p.endsWith(`${row.session_id}.jsonl`) || p.endsWith(`${row.session_id}.txt`),
      );
      expect(file, row.session_id).toBeDefined();
      const lines = readFileSync(file!, 'utf8').split('\n');
      const frame = /^store-transcript:frame:(\d+)$/.exec(row.locator);
      if (frame) {
        expect(row.frame_index).toBe(Number(frame[1]));
        expect(frameHolds(lines, row.frame_index!, row), row.locator).toBe(true);
      } else {
        const line = Number(/^store-transcript:line:(\d+)$/.exec(row.locator)![1]);
        expect(row.frame_index).toBeNull();
        expect(holds(lines.slice(line, line + 20).join('\n'), row), row.locator).toBe(true);
      }
    }
  });

  it('a CLI or Cloud capture locator is the frame (or SSE event) that holds the row', () => {
    const rows = live.filter(
      (r) => r.representation === 'cli-stream' || r.representation === 'cloud-capture',
    );
    const bySurface = new Set(rows.map((r) => r.locator.split(':')[0]));
    expect([...bySurface].sort()).toEqual(['cli-stream', 'cloud-capture', 'cloud-sse']);
    const captureLines = Object.fromEntries(
      Object.entries(captureFiles).map(([k, f]) => [k, readFileSync(f, 'utf8').split('\n')]),
    );
    for (const row of rows) {
      const sse = /^cloud-sse:line:(\d+)(#event:.+)?$/.exec(row.locator);
      if (sse) {
        const lines = captureLines.sse!;
        const at = Number(sse[1]);
        expect(row.frame_index).toBeNull();
        if (sse[2]) expect(lines[at], row.locator).toBe(`id: ${sse[2].slice('#event:'.length)}`);
        const data = lines.slice(at, at + 3).find((l) => l.startsWith('data: '))!;
        expect(frameHolds([data.slice('data: '.length)], 0, row), row.locator).toBe(true);
        continue;
      }
      const frame = /^(cli-stream|cloud-capture):frame:(\d+)(#event:(.+))?$/.exec(row.locator);
      expect(frame, row.locator).not.toBeNull();
      expect(row.frame_index).toBe(Number(frame![2]));
      const candidates = Object.entries(captureLines).filter(([k]) =>
        frame![1] === 'cli-stream' ? k.startsWith('cli') : k === 'cloud',
      );
      const found = candidates.some(([, lines]) => {
        const line = lines[row.frame_index!] ?? '';
        if (!line.includes(row.session_id)) return false;
        if (frame![4] !== undefined && !line.includes(`"id":"${frame![4]}"`)) return false;
        return frameHolds(lines, row.frame_index!, row);
      });
      expect(found, row.locator).toBe(true);
    }
  });

  it('a Markdown locator is the zero-based line of the role marker the turn follows', () => {
    const rows = live.filter((r) => r.representation === 'markdown-export');
    expect(rows.length).toBeGreaterThan(0);
    const docs = [captureFiles.exportChat!, captureFiles.specstory!].map((f) =>
      readFileSync(f, 'utf8').split('\n'),
    );
    for (const row of rows) {
      const line = Number(/^markdown:line:(\d+)$/.exec(row.locator)![1]);
      const found = docs.some(
        (lines) =>
          /^(_\*\*|\*\*|#)/.test(lines[line] ?? '') && holds(lines.slice(line, line + 40).join('\n'), row),
      );
      expect(found, row.locator).toBe(true);
    }
  });

  it('a backup locator names the archive entry and the record inside it', async () => {
    expect(backup.length).toBeGreaterThan(0);
    const dbs = new Map<string, string>();
    for (const row of backup) {
      const match = /^backup:([^!]+)!(.*)$/.exec(row.locator);
      expect(match, row.locator).not.toBeNull();
      const [, entry, inner] = match!;
      if (!dbs.has(entry!)) {
        const path = join(root, `entry-${dbs.size}.vscdb`);
        writeFileSync(path, await zipEntry(backupPath, entry!));
        dbs.set(entry!, path);
      }
      if (row.representation === 'composer-global') {
        const value = keyValue(dbs.get(entry!)!, 'cursorDiskKV', inner!.replace(/^composer:global:/, ''));
        expect(value, row.locator).not.toBeNull();
        if (row.chosen) expect(holds(value!, row), row.locator).toBe(true);
      } else {
        const [, id, index] = /^composer:workspace:composerData:(.+)#(\d+)$/.exec(inner!)!;
        const data = JSON.parse(keyValue(dbs.get(entry!)!, 'ItemTable', 'composer.composerData')!);
        const composer = data.allComposers.find((c: Row) => c.composerId === id);
        expect(holds(JSON.stringify(composer.conversation[Number(index)]), row), row.locator).toBe(true);
      }
    }
  });

  it('a merged message lists both sources, the kept side chosen', () => {
    const merged = live.filter(
      (r) => r.session_id === IDS.merged && r.origin === 'both' && r.row_kind === 'message',
    );
    expect(merged.length).toBeGreaterThan(0);
    for (const id of new Set(merged.map((r) => r.row_id))) {
      const rows = merged.filter((r) => r.row_id === id);
      expect(new Set(rows.map((r) => r.representation))).toEqual(new Set(['composer-global', 'store-db']));
      expect(rows.some((r) => r.chosen)).toBe(true);
    }
  });

  it('etl show --provenance lists each message with its source and locator', () => {
    const target = `duckdb:${join(root, 'live.duckdb')}`;
    const show = runCli(['show', IDS.merged, '--provenance', '--json', '--target', target]);
    expect(show.code, show.stderr).toBe(0);
    const { session, rows: listed } = JSON.parse(show.stdout) as { session: Row; rows: Row[] };
    expect(new Set(listed.map((r) => r.ordinal)).size).toBe(Number(session.message_count));
    for (const row of listed) expect(typeof row.locator).toBe('string');
    const both = listed.filter((r) => r.origin === 'both' && r.row_kind === 'message');
    expect(new Set(both.map((r) => r.representation))).toEqual(new Set(['composer-global', 'store-db']));
    const missing = runCli(['show', 'no-such-session', '--json', '--target', target]);
    expect(missing.code).not.toBe(0);
    expect(JSON.parse(missing.stderr).error.code).toBe('SESSION_NOT_FOUND');
  });

  it('no locator holds a physical path', () => {
    for (const row of [...live, ...backup]) {
      expect(row.locator.includes(root), row.locator).toBe(false);
      expect(row.locator, row.locator).not.toMatch(/^\/|[A-Za-z]:\\|\.duckdb|\.zip/);
    }
  });
});
