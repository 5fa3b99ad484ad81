/**
 * Sharing an unchanged file between states: a hard link where the storage has them, otherwise a
 * copy flushed to disk, so every state holds all its files either way.
 */
import { constants, copyFileSync, linkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fsyncPath } from '../fs/durable-file.js';

/** link() errors that mean the storage has no (more) hard links for a file: copy instead. */
const LINK_REFUSALS = ['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK'] as const;
export type LinkRefusal = (typeof LINK_REFUSALS)[number];

function refusalOf(error: unknown): LinkRefusal | null {
  const code = (error as NodeJS.ErrnoException).code;
  return LINK_REFUSALS.find((known) => known === code) ?? null;
}

export function linkOrCopy(source: string, target: string): void {
  try {
    linkSync(source, target);
  } catch (error) {
    if (refusalOf(error) === null) throw error;
    copyFileSync(source, target, constants.COPYFILE_EXCL);
    fsyncPath(target);
  }
}

/**
 * Whether the storage refuses to link `source` into `dir`: asked once when a run opens, so the run
 * can say once that it copies.
 */
export function linkRefusal(source: string, dir: string): LinkRefusal | null {
  const probe = join(dir, 'link-probe');
  try {
    linkSync(source, probe);
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal === null) throw error;
    return refusal;
  }
  rmSync(probe, { force: true });
  return null;
}
