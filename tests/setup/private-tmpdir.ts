/**
 * Every test file gets its own TMPDIR, removed when the file is done: scratch directories made by
 * tests (and by the runs they start, which inherit the environment) cannot pile up in the system
 * temp directory, and a file that checks for residue sees only its own.
 */
import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

// A worker may run several files in one process: each file's root sits in the system temp directory.
process.env.ETL_TEST_SYSTEM_TMPDIR ??= tmpdir();
const root = mkdtempSync(join(process.env.ETL_TEST_SYSTEM_TMPDIR, 'etl-vitest-'));
// Traversable, not listable: the hostile suite runs some children as an unprivileged user.
chmodSync(root, 0o711);
process.env.TMPDIR = root;

/** Tests deny access to directories on purpose: give the owner access back so they can be removed. */
function restoreAccess(path: string): void {
  try {
    // lstat: a test's symlink may point outside the scratch tree, whose modes must stay untouched.
    if (!lstatSync(path).isDirectory()) return;
    chmodSync(path, 0o700);
    for (const name of readdirSync(path)) restoreAccess(join(path, name));
  } catch {
    // Whatever stays unreadable is left for rmSync's own error handling below.
  }
}

afterAll(() => {
  try {
    rmSync(root, { recursive: true, force: true });
  } catch {
    restoreAccess(root);
    rmSync(root, { recursive: true, force: true });
  }
});
