/**
 * Expands `--input` paths into capture files: files as given, directories walked in sorted order
 * within a depth bound and a bound on the files admitted. Symlinks are never followed, special files never opened; skipped
 * entries become diagnostics, an unlistable folder a refused source.
 */
import { type Dirent, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { type DetailsArgs, type Diagnostic, diagnostic } from '../../shared/diagnostic.js';
import type { Code } from '../../shared/diagnostic-catalogue.js';
import { sourceKeyFor } from '../fs/source-identity.js';
import { listUtf8Entries } from '../fs/utf8-entry-names.js';
import { DEFAULT_READ_LIMITS } from '../limits/read-limits.js';
import { rejectionDiagnostic } from './capture-rejection.js';
import { CaptureInputNotAFile, nonFileType } from './input-not-a-file.js';

export const WALK_MAX_DEPTH = 8;

export interface WalkResult {
  files: string[];
  diagnostics: Diagnostic[];
}

function skipped<C extends Code>(code: C, message: string, path: string, ...[details]: DetailsArgs<C>) {
  return diagnostic<Code>(code, message, details, { sourceRef: sourceKeyFor('capture-file', path) });
}

/** `maxFiles` bounds the capture files admitted (inclusive); folders and skipped entries do not count. */
export function walkInputs(
  inputs: readonly string[],
  maxFiles: number = DEFAULT_READ_LIMITS.captureInputFiles,
): WalkResult {
  const files = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  let bounded = false;
  const visit = (path: string, depth: number): void => {
    if (bounded) return;
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (!stat) {
      diagnostics.push(skipped('CAPTURE_INPUT_MISSING', 'An input path does not exist', path));
      return;
    }
    if (stat.isSymbolicLink()) {
      diagnostics.push(skipped('CAPTURE_SYMLINK_SKIPPED', 'A symlink in the inputs was not followed', path));
      return;
    }
    if (stat.isFile()) {
      if (files.size < maxFiles || files.has(path)) files.add(path);
      else {
        bounded = true;
        diagnostics.push(
          skipped('CAPTURE_WALK_LIMIT', 'Input walk stopped at its file bound', path, {
            bound: 'files',
            limit: maxFiles,
          }),
        );
      }
      return;
    }
    const special = nonFileType(stat);
    if (special !== null) {
      if (depth === 0) throw new CaptureInputNotAFile(special);
      diagnostics.push(
        skipped('CAPTURE_NOT_A_FILE', 'A special file in the inputs was not opened', path, {
          fileType: special,
        }),
      );
      return;
    }
    if (depth >= WALK_MAX_DEPTH) {
      diagnostics.push(
        skipped('CAPTURE_WALK_LIMIT', 'Input walk stopped at its depth bound', path, {
          bound: 'depth',
          limit: WALK_MAX_DEPTH,
        }),
      );
      return;
    }
    let children: Dirent[];
    try {
      const listed = listUtf8Entries(path);
      if (listed.notUtf8 > 0)
        diagnostics.push(
          skipped('SOURCE_ENCODING_INVALID', 'Input entries whose names are not UTF-8 were not read', path, {
            part: 'entry-name',
            problem: 'invalid-utf8',
            count: listed.notUtf8,
          }),
        );
      children = listed.entries;
    } catch (error) {
      // A folder that may not be listed is refused like an unreadable file (CAPTURE_UNREADABLE).
      diagnostics.push(rejectionDiagnostic(error, sourceKeyFor('capture-file', path)));
      return;
    }
    children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const child of children) visit(join(path, child.name), depth + 1);
  };
  for (const input of inputs) visit(input, 0);
  return { files: [...files], diagnostics };
}
