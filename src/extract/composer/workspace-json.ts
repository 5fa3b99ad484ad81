/**
 * `workspace.json` → normalized workspace path (`workspace` preferred over `folder`). A missing
 * file or no usable folder is a pathless workspace; a file present but unreadable as a workspace
 * (cut, not an object, a field of another type) is damage: `problem` names it, the path is unknown.
 */
import { closeSync, fstatSync, readFileSync } from 'node:fs';
import { normalizeWorkspacePath } from '../../shared/normalize-workspace-path.js';
import { openRegularFileSync } from '../fs/open-regular-file.js';
import { hasWrongTypedField } from '../text/field-types.js';
import { parseStrictJson } from '../text/strict-json.js';
import { decodeStrictUtf8, SourceEncodingInvalid } from '../text/strict-utf8.js';

const MAX_WORKSPACE_JSON_BYTES = 1024 * 1024;

export interface WorkspaceJson {
  path: string | null;
  problem: string | null;
}

const damaged = (problem: string): WorkspaceJson => ({ path: null, problem });

export function readWorkspaceJson(path: string): WorkspaceJson {
  let bytes: Buffer;
  try {
    // A FIFO or device there is refused, never read (it would block the run).
    const fd = openRegularFileSync(path);
    try {
      if (fstatSync(fd).size > MAX_WORKSPACE_JSON_BYTES) return damaged('too-large');
      bytes = readFileSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? { path: null, problem: null } : damaged(code ?? 'read-failed');
  }
  let parsed: unknown;
  try {
    parsed = parseStrictJson(decodeStrictUtf8(bytes, 'workspace-json'), 'workspace-json');
  } catch (error) {
    return damaged(error instanceof SourceEncodingInvalid ? 'invalid-encoding' : 'invalid-json');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return damaged('not-an-object');
  const record = parsed as Record<string, unknown>;
  if (hasWrongTypedField(record, { workspace: 'string', folder: 'string' }))
    return damaged('wrong-field-type');
  for (const field of ['workspace', 'folder']) {
    const value = record[field];
    if (typeof value === 'string') {
      const normalized = normalizeWorkspacePath(value);
      if (normalized !== null) return { path: normalized, problem: null };
    }
  }
  return { path: null, problem: null };
}
