/**
 * Which configured Cursor data roots do not exist. A root that is gone (a typo, an unmounted home)
 * reads as "no sources", which must not pass for "every session was deleted".
 */
import { statSync } from 'node:fs';
import type { SourceKind } from '../shared/source-fingerprint.js';
import type { SourceRoots } from './source-adapter.js';

export type DataRoot = 'cursorUserDir' | 'cursorStoreRoot';

const DATA_ROOTS: readonly DataRoot[] = ['cursorUserDir', 'cursorStoreRoot'];

export function missingRoots(roots: SourceRoots): DataRoot[] {
  return DATA_ROOTS.filter((name) => {
    const path = roots[name];
    if (path === null) return false;
    try {
      statSync(path);
      return false;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return code === 'ENOENT' || code === 'ENOTDIR';
    }
  });
}

const KINDS_UNDER: Record<DataRoot, readonly SourceKind[]> = {
  cursorUserDir: ['composer-global-db', 'composer-workspace-db'],
  cursorStoreRoot: [
    'store-session-dir',
    'store-transcript',
    'store-subagent-transcript',
    'store-legacy-transcript',
    'sdk-agent-index',
    'ai-code-tracking-db',
  ],
};

/** The source kinds discovered under these roots. */
export function kindsUnder(roots: readonly DataRoot[]): SourceKind[] {
  return roots.flatMap((root) => KINDS_UNDER[root]);
}
