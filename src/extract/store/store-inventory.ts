/**
 * Metadata-only inventory of a Store root (cursor-formats §2.1, §2.7): `chats/<md5(cwd)>/<uuid>/`,
 * compact `chats/<32hex>/store.db`, `acp-sessions/<uuid>/` and
 * `projects/<slug>/agent-transcripts/`. Only listings and `meta.json` are read, no payload.
 */
import { type Dirent, lstatSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { listUtf8Entries } from '../fs/utf8-entry-names.js';
import { readMetaJson } from './meta-json.js';
import type { DbExpectation, MetaJsonFacts } from './store-contribution.js';

export interface SessionDirEntry {
  sessionId: string;
  dir: string;
  layout: 'chats' | 'compact' | 'acp';
  dbPath: string | null;
  /** Why the `store.db` entry cannot be opened as a file (not regular, dangling, a loop), or null. */
  dbProblem: string | null;
  meta: MetaJsonFacts | null;
}

export type TranscriptLayout = 'nested' | 'flat' | 'subagent' | 'legacy-txt';

export interface TranscriptEntry {
  sessionId: string;
  path: string;
  /** Why the entry cannot be read as a regular file inside the Store root, or null. */
  problem: string | null;
  layout: TranscriptLayout;
  projectDir: string;
  parentSessionId: string | null;
}

export interface StoreInventory {
  sessionDirs: SessionDirEntry[];
  transcripts: TranscriptEntry[];
  /** The errno of every directory that exists but could not be listed (no path). */
  unlistable: string[];
}

/** What one inventory walk shares: the resolved root, and where unlistable directories go. */
interface Walk {
  realRoot: string;
  unlistable: string[];
}

const HEX32 = /^[0-9a-fA-F]{32}$/;
const EPOCH_BUCKET = /^\d{13}$/;

/**
 * The session a compact `chats/<32 hex>/` directory names: its UUID re-dashed 8-4-4-4-12 with the
 * letters as spelled (session IDs are byte-exact), so it joins its transcript and Composer
 * counterpart; null for any other name.
 */
export function compactSessionId(name: string): string | null {
  if (!HEX32.test(name)) return null;
  return [name.slice(0, 8), name.slice(8, 12), name.slice(12, 16), name.slice(16, 20), name.slice(20)].join(
    '-',
  );
}

/**
 * An absent path lists as empty; a directory that exists but cannot be listed is recorded, and so is
 * an entry whose name is not UTF-8 (a session ID or project name that cannot be decoded exactly).
 */
function list(dir: string, walk: Walk): Dirent[] {
  let entries: Dirent[];
  try {
    const listed = listUtf8Entries(dir);
    for (let i = 0; i < listed.notUtf8; i++) walk.unlistable.push('name-not-utf8');
    entries = listed.entries;
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'unknown';
    if (reason !== 'ENOENT' && reason !== 'ENOTDIR') walk.unlistable.push(reason);
    return [];
  }
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function hasFile(entries: Dirent[], name: string): boolean {
  return entries.some((e) => e.isFile() && e.name === name);
}

/**
 * Null for a regular file (a link to one inside the Store root is followed); else why it is not one.
 * Only stat calls: a FIFO or device is never opened, so it cannot block the run. An entry the listing
 * already typed as a regular file (not a link) needs none.
 */
function regularFileProblem(path: string, realRoot: string, listed?: Dirent): string | null {
  if (listed?.isFile()) return null;
  try {
    if (lstatSync(path).isSymbolicLink() && !realpathSync(path).startsWith(realRoot + sep))
      return 'outside-store-root';
    return statSync(path).isFile() ? null : 'not-a-regular-file';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'stat-failed';
  }
}

/** The Store root with its links resolved, so a link's target can be checked against it. */
function realRootOf(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return root;
  }
}

function sessionDir(
  sessionId: string,
  dir: string,
  layout: SessionDirEntry['layout'],
  walk: Walk,
): SessionDirEntry | null {
  const entries = list(dir, walk);
  // Any entry named store.db counts: a directory, FIFO or broken link there is reported, not skipped.
  const db = entries.find((e) => e.name === 'store.db');
  const dbPath = db === undefined ? null : join(dir, 'store.db');
  const dbProblem = dbPath === null ? null : regularFileProblem(dbPath, walk.realRoot, db);
  // A meta.json that is a directory, FIFO or broken link is unsupported metadata, not an absent one.
  const meta = entries.some((e) => e.name === 'meta.json') ? readMetaJson(join(dir, 'meta.json')) : null;
  if (dbPath === null && meta === null) return null;
  return { sessionId, dir, layout, dbPath, dbProblem, meta };
}

function inventoryChats(root: string, walk: Walk, out: SessionDirEntry[]): void {
  for (const bucket of list(join(root, 'chats'), walk)) {
    if (!bucket.isDirectory()) continue;
    const bucketDir = join(root, 'chats', bucket.name);
    const inside = list(bucketDir, walk);
    const compactId = compactSessionId(bucket.name);
    if (compactId !== null && hasFile(inside, 'store.db')) {
      const entry = sessionDir(compactId, bucketDir, 'compact', walk);
      if (entry) out.push(entry);
      continue;
    }
    for (const child of inside) {
      if (!child.isDirectory()) continue;
      const entry = sessionDir(child.name, join(bucketDir, child.name), 'chats', walk);
      if (entry) out.push(entry);
    }
  }
  for (const child of list(join(root, 'acp-sessions'), walk)) {
    if (!child.isDirectory()) continue;
    const entry = sessionDir(child.name, join(root, 'acp-sessions', child.name), 'acp', walk);
    if (entry) out.push(entry);
  }
}

function stem(name: string, extension: string): string | null {
  return name.endsWith(extension) && name.length > extension.length ? name.slice(0, -extension.length) : null;
}

/**
 * Any entry with a transcript's name counts, whatever it is: a FIFO, device, directory or link that
 * cannot be read as a regular file inside the root is recorded with its problem, never skipped.
 */
function inventoryTranscripts(root: string, walk: Walk, out: TranscriptEntry[]): void {
  for (const project of list(join(root, 'projects'), walk)) {
    if (!project.isDirectory()) continue;
    const base = join(root, 'projects', project.name, 'agent-transcripts');
    const add = (
      sessionId: string,
      path: string,
      listed: Dirent,
      layout: TranscriptLayout,
      parent: string | null = null,
    ) =>
      out.push({
        sessionId,
        path,
        problem: regularFileProblem(path, walk.realRoot, listed),
        layout,
        projectDir: project.name,
        parentSessionId: parent,
      });
    for (const entry of list(base, walk)) {
      if (!entry.isDirectory()) {
        const flat = stem(entry.name, '.jsonl');
        const legacy = stem(entry.name, '.txt');
        if (flat !== null) add(flat, join(base, entry.name), entry, 'flat');
        else if (legacy !== null) add(legacy, join(base, entry.name), entry, 'legacy-txt');
        continue;
      }
      const nestedDir = join(base, entry.name);
      const nested = list(nestedDir, walk);
      const own = nested.find((e) => e.name === `${entry.name}.jsonl`);
      if (own !== undefined) add(entry.name, join(nestedDir, own.name), own, 'nested');
      // Listed only when present: an absent one would cost a thrown ENOENT per transcript.
      if (!nested.some((e) => e.name === 'subagents')) continue;
      for (const sub of list(join(nestedDir, 'subagents'), walk)) {
        const id = sub.isDirectory() ? null : stem(sub.name, '.jsonl');
        if (id !== null) add(id, join(nestedDir, 'subagents', sub.name), sub, 'subagent', entry.name);
      }
    }
  }
}

export function inventoryStoreRoot(root: string): StoreInventory {
  const inventory: StoreInventory = { sessionDirs: [], transcripts: [], unlistable: [] };
  const walk: Walk = { realRoot: realRootOf(root), unlistable: inventory.unlistable };
  inventoryChats(root, walk, inventory.sessionDirs);
  inventoryTranscripts(root, walk, inventory.transcripts);
  return inventory;
}

/** cursor-history's forward slug of a cwd: separators and colons become `-`. */
export function forwardSlug(cwd: string): string {
  let path = cwd.replaceAll('\\', '/');
  if (/^[A-Za-z]:/.test(path)) path = path[0]!.toLowerCase() + path.slice(1);
  return path.replace(/^\/+|\/+$/g, '').replace(/[/:]+/g, '-');
}

/** The known cwds by forward slug, built once per discovery instead of once per transcript. */
export interface CwdSlugs {
  bySlug: Map<string, string[]>;
  all: string[];
}

export function cwdSlugs(cwds: ReadonlySet<string>): CwdSlugs {
  const bySlug = new Map<string, string[]>();
  for (const cwd of cwds) {
    const slug = forwardSlug(cwd);
    bySlug.set(slug, [...(bySlug.get(slug) ?? []), cwd]);
  }
  return { bySlug, all: [...cwds] };
}

/** A transcript's workspace: its project slug names exactly one known cwd (or a no-workspace bucket with one cwd). */
export function transcriptWorkspace(projectDir: string, cwds: CwdSlugs): string | null {
  const matches = cwds.bySlug.get(projectDir) ?? [];
  if (matches.length === 1) return matches[0]!;
  if ((projectDir === 'empty-window' || EPOCH_BUCKET.test(projectDir)) && cwds.all.length === 1)
    return cwds.all[0]!;
  return null;
}

/** DB expectation for one UUID from all of its session directories (cursor-formats §2.7 step 3). */
export function dbExpectation(dirs: readonly SessionDirEntry[]): DbExpectation {
  if (dirs.length === 0) return 'not-expected';
  if (dirs.some((d) => d.dbPath !== null || d.meta?.hasConversation === true)) return 'expected';
  if (dirs.some((d) => d.meta === null || d.meta.problem !== null || d.meta.hasConversation === null))
    return 'unknown';
  return 'not-expected';
}
