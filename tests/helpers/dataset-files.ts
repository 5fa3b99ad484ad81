/** The published state's files as `relative path → inode`, to tell linked files from rewritten ones. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export function currentState(root: string): string {
  return readFileSync(join(root, 'CURRENT'), 'utf8').trim();
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** Data files (Parquet) of the published state keyed by table/partition, with their inode. */
export function stateDataFiles(root: string): Map<string, { inode: number; name: string; mode: number }> {
  const dir = join(root, 'states', currentState(root));
  const files = new Map<string, { inode: number; name: string; mode: number }>();
  for (const path of walk(dir).filter((p) => p.endsWith('.parquet'))) {
    const rel = relative(dir, path);
    const stat = statSync(path);
    files.set(rel.slice(0, rel.lastIndexOf('/')), { inode: stat.ino, name: rel, mode: stat.mode & 0o777 });
  }
  return files;
}
