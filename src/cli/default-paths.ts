/** Cursor's per-OS data locations and the default warehouse location (XDG data directory). */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { currentEnvironment, type DataRootEnvironment, dataRootCandidates } from '../extract/data-roots.js';
import type { AdditionalRoot } from '../extract/source-adapter.js';

export function defaultCursorUserDir(
  platform: NodeJS.Platform = process.platform,
  env = process.env,
): string {
  const home = homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Cursor', 'User');
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Cursor', 'User');
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Cursor', 'User');
}

/** `$CURSOR_CONFIG_DIR` names the agent home wherever it is set (reference §6.2). */
export function defaultCursorStoreRoot(env = process.env): string {
  const configDir = env.CURSOR_CONFIG_DIR;
  return configDir !== undefined && configDir.length > 0 ? configDir : join(homedir(), '.cursor');
}

/**
 * The found roots of default discovery beyond the two primary ones: Insiders, the other XDG
 * spelling, WSL's Windows side, a remote server's `User` directory.
 */
export function defaultAdditionalRoots(
  primary: readonly string[],
  environment: DataRootEnvironment = currentEnvironment(),
): AdditionalRoot[] {
  const taken = new Set(primary.map((path) => resolve(path)));
  return dataRootCandidates(environment)
    .filter((candidate) => candidate.found && !taken.has(resolve(candidate.path)))
    .map((candidate) => ({ kind: candidate.kind, path: candidate.path }));
}

export function defaultWarehousePath(env = process.env): string {
  const dataHome =
    env.XDG_DATA_HOME && env.XDG_DATA_HOME.length > 0
      ? env.XDG_DATA_HOME
      : join(homedir(), '.local', 'share');
  return join(dataHome, 'cursor-etl', 'history.duckdb');
}
