/** Cursor's per-OS data locations and the default warehouse location (XDG data directory). */
import { homedir } from 'node:os';
import { join } from 'node:path';

export function defaultCursorUserDir(
  platform: NodeJS.Platform = process.platform,
  env = process.env,
): string {
  const home = homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Cursor', 'User');
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Cursor', 'User');
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Cursor', 'User');
}

export function defaultCursorStoreRoot(): string {
  return join(homedir(), '.cursor');
}

export function defaultWarehousePath(env = process.env): string {
  const dataHome =
    env.XDG_DATA_HOME && env.XDG_DATA_HOME.length > 0
      ? env.XDG_DATA_HOME
      : join(homedir(), '.local', 'share');
  return join(dataHome, 'cursor-etl', 'history.duckdb');
}
