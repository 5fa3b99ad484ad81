/**
 * Metadata-only inventory of SDK agent stores (cursor-formats §3.1):
 * `projects/<slug>/sdk-agent-store/<projectHash>/index.db`. The hash directory is listed, never
 * derived; the per-agent `agents/<hex>/store.db` files beside it have no documented schema (§10):
 * they are counted, never opened.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { listUtf8Entries } from '../fs/utf8-entry-names.js';

export interface SdkIndexEntry {
  path: string;
  /** Why the entry is not a regular file, or null. */
  problem: string | null;
  /** Per-agent `agents/<hex>/store.db` regular files beside the index. */
  agentStores: number;
}

function isRegularFile(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
  } catch {
    return false;
  }
}

function names(dir: string, unlistable: string[]): string[] {
  try {
    const listed = listUtf8Entries(dir);
    for (let i = 0; i < listed.notUtf8; i++) unlistable.push('name-not-utf8');
    return listed.entries
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'unknown';
    if (reason !== 'ENOENT' && reason !== 'ENOTDIR') unlistable.push(reason);
    return [];
  }
}

export function inventorySdkStores(storeRoot: string): { indexes: SdkIndexEntry[]; unlistable: string[] } {
  const unlistable: string[] = [];
  const indexes: SdkIndexEntry[] = [];
  for (const project of names(join(storeRoot, 'projects'), unlistable)) {
    const base = join(storeRoot, 'projects', project, 'sdk-agent-store');
    for (const hash of names(base, unlistable)) {
      const path = join(base, hash, 'index.db');
      let problem: string | null = null;
      try {
        const stat = statSync(path, { throwIfNoEntry: false });
        if (stat === undefined) continue;
        if (!stat.isFile()) problem = 'not-a-regular-file';
      } catch (error) {
        problem = (error as NodeJS.ErrnoException).code ?? 'stat-failed';
      }
      const agents = join(base, hash, 'agents');
      const agentStores = names(agents, []).filter((agent) =>
        isRegularFile(join(agents, agent, 'store.db')),
      ).length;
      indexes.push({ path, problem, agentStores });
    }
  }
  return { indexes, unlistable };
}
