/**
 * Lexical workspace path normalization (contract "Workspace matching"): paths are never resolved on
 * disk, since historical and foreign paths need not exist here. Every source's folder goes through
 * this module, so one folder is one stored value (docs/workspaces.md).
 */

/**
 * A normalized path, always NFC: POSIX `/a/b`; Windows drive `c:/a/b` and UNC `//server/share/a`,
 * both lower-cased; `vscode-remote://<authority>/a/b`; a repository `https://<host>/<path>`.
 */
export type NormalizedPath = string;

const DRIVE = /^\/?([A-Za-z]):(?:[\\/]|$)/;
const WSL_MOUNT = /^\/mnt\/([A-Za-z])(?:\/|$)/;
/** `\\?\C:\…` and `\\.\C:\…`: Win32 device-namespace prefixes of an ordinary drive path. */
const WIN32_PREFIX = /^[\\/]{2}[?.][\\/](?=[A-Za-z]:)/;
/** `\\server\share\…` (or `//server/share/…`): a Windows UNC path. */
const UNC = /^(?:\\\\|\/\/)([^\\/]+)(.*)$/s;
/** The Windows side of a WSL distribution: `\\wsl$\<distro>\…` or `\\wsl.localhost\<distro>\…`. */
const WSL_SHARE = /^(?:wsl\$|wsl\.localhost)$/i;
const REMOTE = /^vscode-remote:\/\/([^/]*)(.*)$/is;
const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/** Decodes each `%XX` run that decodes; a malformed escape stays as written. */
function percentDecode(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
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

/** Windows compares names case-insensitively: the stored spelling is the locale-free lower case. */
function windowsPath(root: string, rest: string): NormalizedPath {
  return `${root}/${normalizeSegments(rest.replaceAll('\\', '/')).join('/')}`.toLowerCase();
}

/** Normalizes a plain (already decoded) path; null when it is empty or relative. */
function normalizePlainPath(path: string): NormalizedPath | null {
  const unprefixed = path.replace(WIN32_PREFIX, '');
  const drive = DRIVE.exec(unprefixed);
  if (drive) return windowsPath(`${drive[1]!}:`, unprefixed.slice(drive[0].length));
  const mount = WSL_MOUNT.exec(path);
  if (mount) return windowsPath(`${mount[1]!}:`, path.slice(mount[0].length));
  const unc = UNC.exec(path);
  if (unc) {
    const [share = '', ...rest] = normalizeSegments(unc[2]!.replaceAll('\\', '/'));
    // A WSL distribution seen from Windows is that distribution's (case-sensitive) Linux path.
    if (WSL_SHARE.test(unc[1]!)) return share === '' ? null : `/${rest.join('/')}`;
    return windowsPath(`//${unc[1]!}`, [share, ...rest].join('/'));
  }
  if (!path.startsWith('/')) return null;
  return `/${normalizeSegments(path).join('/')}`;
}

/**
 * A Git repository URL (`https://host/o/r.git`, `host/o/r`, `git@host:o/r.git`,
 * `ssh://git@host/o/r`) as `https://<host>/<path>`: credentials, port, query, `.git` and trailing
 * separators dropped, host lower-cased, path case kept. Null without a host and path.
 */
export function normalizeRepositoryUrl(input: string): NormalizedPath | null {
  const text = input.normalize('NFC');
  const scp = SCHEME.test(text) ? null : /^[^/@\s]+@([^/:\s]+):(?!\/)(.+)$/s.exec(text);
  const url = scp ? `${scp[1]}/${scp[2]}` : text.replace(/^(?:https?|ssh|git):\/\//i, '');
  if (SCHEME.test(url)) return null;
  const match = /^(?:[^/@]*@)?([^/:?#\s]+)(?::\d*)?(\/[^?#]*)/s.exec(url);
  if (match === null || !match[1]!.includes('.')) return null;
  const segments = normalizeSegments(percentDecode(match[2]!));
  if (segments.length === 0) return null;
  segments[segments.length - 1] = segments[segments.length - 1]!.replace(/\.git$/i, '');
  if (segments[segments.length - 1] === '') segments.pop();
  if (segments.length === 0) return null;
  return `https://${match[1]!.toLowerCase()}/${segments.join('/')}`;
}

function normalizeLocation(text: string): NormalizedPath | null {
  if (/^file:\/\//i.test(text)) {
    const withoutScheme = text.slice('file://'.length);
    const slash = withoutScheme.indexOf('/');
    const authority = slash === -1 ? withoutScheme : withoutScheme.slice(0, slash);
    const path = percentDecode(slash === -1 ? '/' : withoutScheme.slice(slash));
    // A non-local authority is a UNC share.
    if (authority !== '' && authority.toLowerCase() !== 'localhost')
      return normalizePlainPath(`//${percentDecode(authority)}${path}`);
    return normalizePlainPath(path);
  }
  const remote = REMOTE.exec(text);
  if (remote) {
    const authority = percentDecode(remote[1]!);
    const path = percentDecode(remote[2] ?? '');
    if (/^wsl\+/i.test(authority)) return normalizePlainPath(path.length === 0 ? '/' : path);
    return `vscode-remote://${authority}/${normalizeSegments(path).join('/')}`;
  }
  if (/^https?:\/\//i.test(text)) return normalizeRepositoryUrl(text);
  if (SCHEME.test(text)) return null;
  return normalizePlainPath(text);
}

/**
 * Normalizes a workspace location from a `file://` or `vscode-remote://` URI, a repository URL or a
 * plain absolute path. Whitespace is part of a folder name and is never trimmed. A WSL remote names
 * a Linux path inside the distribution, so it normalizes to that path. Idempotent on its results.
 */
export function normalizeWorkspacePath(input: string): NormalizedPath | null {
  if (input.trim().length === 0) return null;
  return normalizeLocation(input.normalize('NFC'))?.normalize('NFC') ?? null;
}

/** True for Windows drive and UNC paths, whose components compare case-insensitively. */
export function isWindowsPath(path: NormalizedPath): boolean {
  return /^(?:[a-z]:\/|\/\/[^/])/.test(path);
}

/** Path components after the root, used for complete-component suffix matching. */
export function pathComponents(path: NormalizedPath): string[] {
  const body = path.replace(/^(vscode-remote:\/\/[^/]*|https:\/\/[^/]*|\/\/[^/]*|[a-z]:)?\//, '');
  return body.length === 0 ? [] : body.split('/');
}
