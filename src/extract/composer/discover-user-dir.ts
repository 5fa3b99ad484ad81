/** Finds the Composer databases of a Cursor `User` directory without reading any payload. */
import { lstatSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Diagnostic, type DiagnosticSink, diagnostic } from '../../shared/diagnostic.js';
import { IoError } from '../../shared/errors.js';
import { canonicalHash } from '../../shared/json/canonical-json.js';
import type { SourceKind } from '../../shared/source-fingerprint.js';
import { fingerprintFile, sourceKeyFor } from '../fs/source-identity.js';
import { listUtf8Entries } from '../fs/utf8-entry-names.js';
import type { Carrier, DiscoveredSource } from '../source-adapter.js';
import { readWorkspaceJson } from './workspace-json.js';

const SQLITE_SIDECARS = ['-wal'] as const;

/** What a path names after following links: only regular files are ever opened (a FIFO would block). */
function entryType(path: string): 'file' | 'directory' | 'absent' | 'other' {
  try {
    if (lstatSync(path, { throwIfNoEntry: false }) === undefined) return 'absent';
  } catch {
    return 'absent'; // an ancestor is not a directory: nothing can be there
  }
  try {
    const stat = statSync(path);
    return stat.isFile() ? 'file' : stat.isDirectory() ? 'directory' : 'other';
  } catch {
    return 'other';
  }
}

/**
 * The workspace directories, in code-point order. A `workspaceStorage` that cannot be listed (no
 * permission) holds no database the run can open, as an unreadable workspace directory does
 * (`entryType` says `absent`); the global DB is still read.
 */
function workspaceDirNames(workspaceRoot: string, diagnostics?: DiagnosticSink): string[] {
  try {
    const listed = listUtf8Entries(workspaceRoot);
    if (listed.notUtf8 > 0) diagnostics?.add(workspaceNamesNotUtf8(listed.notUtf8));
    return listed.entries
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') return [];
    throw error;
  }
}

/** Their databases are left out like an unreadable workspace directory's, but never silently. */
function workspaceNamesNotUtf8(count: number): Diagnostic {
  return diagnostic(
    'SOURCE_ENCODING_INVALID',
    'Workspace directories whose names are not UTF-8 were not read',
    { sourceKind: 'composer', part: 'entry-name', problem: 'invalid-utf8', count },
  );
}

/** Derives a source's opaque key from its kind and physical path (a backup keys by archive entry). */
export type SourceKeyDeriver = (kind: SourceKind, locator: string) => string;

export function discoverUserDir(
  userDir: string,
  carrier: Carrier,
  keyFor: SourceKeyDeriver = sourceKeyFor,
  diagnostics?: DiagnosticSink,
): DiscoveredSource[] {
  const globalDb = join(userDir, 'globalStorage', 'state.vscdb');
  const globalType = entryType(globalDb);
  if (globalType !== 'file' && globalType !== 'absent') {
    throw new IoError('SOURCE_UNREADABLE', 'The Composer global database is not a regular file', {
      sourceKind: 'composer',
      reason: 'not-a-regular-file',
    });
  }
  const workspaces: DiscoveredSource[] = [];
  // What each workspace contributes to attribution: the global DB's sessions name workspaces by
  // storage ID, so the whole list shapes them, and its own path shapes each workspace's sessions.
  const attribution: [string, string | null, ...string[]][] = [];
  const workspaceRoot = join(userDir, 'workspaceStorage');
  if (entryType(workspaceRoot) === 'directory') {
    for (const name of workspaceDirNames(workspaceRoot, diagnostics)) {
      const db = join(workspaceRoot, name, 'state.vscdb');
      if (entryType(db) !== 'file') continue;
      const { path: workspacePath, problem } = readWorkspaceJson(join(workspaceRoot, name, 'workspace.json'));
      // A damaged file joins the digest only when present, so an undamaged tree keeps its digests.
      const evidence: [string | null, ...string[]] =
        problem === null ? [workspacePath] : [workspacePath, problem];
      attribution.push([name, ...evidence]);
      workspaces.push({
        sourceKey: keyFor('composer-workspace-db', db),
        kind: 'composer-workspace-db',
        carrier,
        locator: db,
        fingerprint: {
          ...fingerprintFile(db, SQLITE_SIDECARS),
          metadataDigest: canonicalHash(problem === null ? workspacePath : evidence),
        },
      });
    }
  }
  if (globalType !== 'file') return workspaces;
  const global: DiscoveredSource = {
    sourceKey: keyFor('composer-global-db', globalDb),
    kind: 'composer-global-db',
    carrier,
    locator: globalDb,
    fingerprint: {
      ...fingerprintFile(globalDb, SQLITE_SIDECARS),
      metadataDigest: canonicalHash(attribution),
    },
  };
  return [global, ...workspaces];
}
