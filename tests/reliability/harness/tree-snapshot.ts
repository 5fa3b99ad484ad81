/** Every entry under a directory (kind, mode, size, mtime, content digest): what "nothing touched" means. */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export function treeSnapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    const stat = lstatSync(path);
    const digest = entry.isFile() ? createHash('sha256').update(readFileSync(path)).digest('hex') : '';
    out[relative(dir, path)] =
      `${entry.isDirectory() ? 'dir' : entry.isFile() ? 'file' : 'other'} ${stat.mode.toString(8)} ${stat.size} ${stat.mtimeMs} ${digest}`;
  }
  return out;
}
