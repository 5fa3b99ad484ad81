/**
 * `workspace.json` → normalized workspace path. `workspace` (a `.code-workspace` URI) is preferred
 * over `folder`; a missing, unreadable or unsupported file gives a pathless workspace (null).
 */
import { readFileSync } from 'node:fs';
import { normalizeWorkspacePath } from '../../shared/normalize-workspace-path.js';
import { parseStrictJson } from '../text/strict-json.js';
import { decodeStrictUtf8 } from '../text/strict-utf8.js';

const MAX_WORKSPACE_JSON_BYTES = 1024 * 1024;

export function readWorkspaceJson(path: string): string | null {
  let parsed: unknown;
  try {
    const bytes = readFileSync(path);
    if (bytes.length > MAX_WORKSPACE_JSON_BYTES) return null;
    parsed = parseStrictJson(decodeStrictUtf8(bytes, 'workspace-json'), 'workspace-json');
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== 'object') return null;
  const record = parsed as Record<string, unknown>;
  for (const field of ['workspace', 'folder']) {
    const value = record[field];
    if (typeof value === 'string') {
      const normalized = normalizeWorkspacePath(value);
      if (normalized !== null) return normalized;
    }
  }
  return null;
}
