/**
 * Lexical workspace path normalization (contract "Workspace matching"): paths are never resolved on
 * disk, because historical and foreign-platform paths need not exist on this machine.
 */

/** A normalized path: POSIX `/a/b`, drive `c:/a/b`, or `vscode-remote://<authority>/a/b`. */
export type NormalizedPath = string;

const DRIVE = /^\/?([A-Za-z]):(?:[\\/]|$)/;
const WSL_MOUNT = /^\/mnt\/([A-Za-z])(?:\/|$)/;
const REMOTE = /^vscode-remote:\/\/([^/]*)(.*)$/i;

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Resolves `.`/`..`, collapses repeated separators and drops trailing ones, never above the root. */
function normalizeSegments(rest: string): string[] {
  const out: string[] = [];
  for (const segment of rest.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return out;
}

function drivePath(letter: string, rest: string): NormalizedPath {
  return `${letter.toLowerCase()}:/${normalizeSegments(rest.replaceAll('\\', '/')).join('/')}`;
}

/** Normalizes a plain (already decoded) path; null when it is empty or relative. */
function normalizePlainPath(path: string): NormalizedPath | null {
  const drive = DRIVE.exec(path);
  if (drive) return drivePath(drive[1]!, path.slice(drive[0].length));
  const mount = WSL_MOUNT.exec(path);
  if (mount) return drivePath(mount[1]!, path.slice(mount[0].length));
  if (!path.startsWith('/')) return null;
  return `/${normalizeSegments(path).join('/')}`;
}

/**
 * Normalizes a workspace location from a `file://` or `vscode-remote://` URI or a plain absolute path.
 * A WSL remote names a Linux path inside the distribution, so it normalizes to that path.
 */
export function normalizeWorkspacePath(input: string): NormalizedPath | null {
  const text = input.trim();
  if (text.length === 0) return null;
  if (/^file:\/\//i.test(text)) {
    const withoutScheme = text.slice('file://'.length);
    const slash = withoutScheme.indexOf('/');
    const authority = slash === -1 ? withoutScheme : withoutScheme.slice(0, slash);
    const path = safeDecode(slash === -1 ? '/' : withoutScheme.slice(slash));
    // A non-local authority is a UNC share: keep it as a remote-style location.
    if (authority !== '' && authority.toLowerCase() !== 'localhost')
      return `//${safeDecode(authority)}/${normalizeSegments(path).join('/')}`;
    return normalizePlainPath(path);
  }
  const remote = REMOTE.exec(text);
  if (remote) {
    const authority = safeDecode(remote[1]!);
    const path = safeDecode(remote[2] ?? '');
    if (/^wsl\+/i.test(authority)) return normalizePlainPath(path.length === 0 ? '/' : path);
    return `vscode-remote://${authority}/${normalizeSegments(path).join('/')}`;
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return null;
  return normalizePlainPath(text);
}

/** True for Windows drive paths, which compare case-insensitively (the source platform's rule). */
export function isDrivePath(path: NormalizedPath): boolean {
  return /^[a-z]:\//.test(path);
}

/** The key two normalized paths are compared by. */
export function comparisonKey(path: NormalizedPath): string {
  return isDrivePath(path) ? path.toLowerCase() : path;
}

/** Path components after the root, used for complete-component suffix matching. */
export function pathComponents(path: NormalizedPath): string[] {
  const body = path.replace(/^(vscode-remote:\/\/[^/]*|\/\/[^/]*|[a-z]:)?\//, '');
  return body.length === 0 ? [] : body.split('/');
}
