/**
 * Every place a Cursor install may keep data on this machine (reference §6): the IDE `User`
 * directories of each OS and the Insiders build, agent homes (`~/.cursor`), the Windows side of a
 * WSL distribution and a remote host's `~/.cursor-server`. Only names and `stat` are read.
 */
import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** `ide-user` holds `state.vscdb` files, `agent-home` is a Store root, `remote-server` a server `User` dir. */
export type DataRootKind = 'ide-user' | 'agent-home' | 'remote-server';

/** Why a path is a candidate: the OS convention or variable that names it. */
export type DataRootOrigin =
  | 'macos'
  | 'linux'
  | 'windows'
  | 'xdg-config'
  | 'cursor-config-dir'
  | 'wsl-windows'
  | 'wsl-distro'
  | 'remote-server';

export interface DataRootCandidate {
  kind: DataRootKind;
  origin: DataRootOrigin;
  /** `insiders` for the `Cursor - Insiders` build; null where the build does not name the path. */
  build: 'stable' | 'insiders' | null;
  /** Where it looked, as this process opens it (under `fsRoot` when one is injected). */
  path: string;
  found: boolean;
}

/** What discovery may read of the machine; tests inject all of it. */
export interface DataRootEnvironment {
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
  home: string;
  /** A directory standing in for `/` (tests); every looked-up path is opened under it. */
  fsRoot?: string;
}

export function currentEnvironment(): DataRootEnvironment {
  return { platform: process.platform, env: process.env, home: homedir() };
}

const BUILDS = [
  ['stable', 'Cursor'],
  ['insiders', 'Cursor - Insiders'],
] as const;

/** Windows profiles that are never a person's. */
const SYSTEM_PROFILES = new Set(['all users', 'default', 'default user', 'public', 'desktop.ini']);

function nonEmpty(value: string | undefined): string | null {
  return value !== undefined && value.length > 0 ? value : null;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** A WSL distribution sets `WSL_DISTRO_NAME`; the interop entry covers a process started without it. */
function isWsl(environment: DataRootEnvironment, physical: (path: string) => string): boolean {
  if (environment.platform !== 'linux') return false;
  if (nonEmpty(environment.env.WSL_DISTRO_NAME) !== null) return true;
  try {
    statSync(physical('/proc/sys/fs/binfmt_misc/WSLInterop'));
    return true;
  } catch {
    return false;
  }
}

function windowsProfiles(physical: (path: string) => string): string[] {
  try {
    return readdirSync(physical('/mnt/c/Users'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !SYSTEM_PROFILES.has(entry.name.toLowerCase()))
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}

type Logical = Omit<DataRootCandidate, 'path' | 'found'> & { logical: string };

/** Logical candidates in a fixed order: the OS default first, then the variants and other sides. */
function logicalCandidates(environment: DataRootEnvironment, physical: (path: string) => string): Logical[] {
  const { platform, env, home } = environment;
  const wsl = isWsl(environment, physical);
  const out: Logical[] = [];
  const ide = (origin: DataRootOrigin, base: string) => {
    for (const [build, folder] of BUILDS)
      out.push({ kind: 'ide-user', origin, build, logical: join(base, folder, 'User') });
  };
  const agent = (origin: DataRootOrigin, logical: string) =>
    out.push({ kind: 'agent-home', origin, build: null, logical });
  const xdg = nonEmpty(env.XDG_CONFIG_HOME);
  if (platform === 'darwin') ide('macos', join(home, 'Library', 'Application Support'));
  else if (platform === 'win32') ide('windows', nonEmpty(env.APPDATA) ?? join(home, 'AppData', 'Roaming'));
  else {
    if (xdg !== null) ide('xdg-config', xdg);
    if (xdg === null || xdg !== join(home, '.config')) ide('linux', join(home, '.config'));
  }
  const configDir = nonEmpty(env.CURSOR_CONFIG_DIR);
  if (configDir !== null) agent('cursor-config-dir', configDir);
  else {
    if (xdg !== null && platform !== 'darwin' && platform !== 'win32')
      agent('xdg-config', join(xdg, 'cursor'));
    const profile = platform === 'win32' ? (nonEmpty(env.USERPROFILE) ?? home) : home;
    const origin =
      platform === 'win32' ? 'windows' : platform === 'darwin' ? 'macos' : wsl ? 'wsl-distro' : 'linux';
    agent(origin, join(profile, '.cursor'));
  }
  if (wsl) {
    for (const user of windowsProfiles(physical)) {
      ide('wsl-windows', join('/mnt/c/Users', user, 'AppData', 'Roaming'));
      agent('wsl-windows', join('/mnt/c/Users', user, '.cursor'));
    }
  }
  out.push({
    kind: 'remote-server',
    origin: 'remote-server',
    build: null,
    logical: join(home, '.cursor-server', 'data', 'User'),
  });
  return out;
}

/** Every candidate root, found or not, each path once (first origin wins). */
export function dataRootCandidates(
  environment: DataRootEnvironment = currentEnvironment(),
): DataRootCandidate[] {
  const physical = (path: string): string =>
    environment.fsRoot === undefined ? path : join(environment.fsRoot, path);
  const seen = new Set<string>();
  const out: DataRootCandidate[] = [];
  for (const { logical, ...rest } of logicalCandidates(environment, physical)) {
    const path = physical(logical);
    if (seen.has(path)) continue;
    seen.add(path);
    out.push({ ...rest, path, found: isDirectory(path) });
  }
  return out;
}
