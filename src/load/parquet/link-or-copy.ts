/**
 * Sharing an unchanged file between states: a hard link where the storage has them, otherwise a
 * copy flushed to disk, so every state holds all its files either way.
 */
import { constants, copyFileSync, linkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type Diagnostic, diagnostic } from '../../shared/diagnostic.js';
import { fsyncPath } from '../fs/durable-file.js';

/** link() errors that mean the storage has no (more) hard links for a file: copy instead. */
const LINK_REFUSALS = ['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK'] as const;
export type LinkRefusal = (typeof LINK_REFUSALS)[number];

function refusalOf(error: unknown): LinkRefusal | null {
  const code = (error as NodeJS.ErrnoException).code;
  return LINK_REFUSALS.find((known) => known === code) ?? null;
}

/** Links `source` as `target`, or copies it where the storage refuses; returns the refusal, if any. */
export function linkOrCopy(source: string, target: string): LinkRefusal | null {
  try {
    linkSync(source, target);
    return null;
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal === null) throw error;
    copyFileSync(source, target, constants.COPYFILE_EXCL);
    fsyncPath(target);
    return refusal;
  }
}

/** What a run says, once, when the storage refused a link and it copied instead. */
export function linksUnavailable(refusal: LinkRefusal): Diagnostic {
  return diagnostic(
    'DATASET_LINKS_UNAVAILABLE',
    'The storage refuses hard links: this run copies the unchanged files',
    { errorCode: refusal },
    { severity: 'info' },
  );
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
