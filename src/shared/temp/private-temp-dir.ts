/**
 * A private temporary workspace (0700 directory, 0600 files) for SQLite snapshots and extracted
 * archive entries, removed on every path: normal exit, exceptions, and SIGINT/SIGTERM.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recoverStaleTempDirs } from './stale-temp-recovery.js';
import { currentOwnerMarker } from './temp-owner-marker.js';

const PREFIX = 'cursor-etl-';
const live = new Set<PrivateTempDir>();
let handlersInstalled = false;
const recoveredParents = new Set<string>();

function installExitHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.once('exit', () => {
    for (const dir of live) dir.dispose();
  });
}

export class PrivateTempDir {
  readonly path: string;
  private counter = 0;
  private disposed = false;

  private constructor(path: string) {
    this.path = path;
  }

  static create(parent: string = tmpdir()): PrivateTempDir {
    // Once per process and parent, before creating ours: remove residue of proven-dead runs.
    if (!recoveredParents.has(parent)) {
      recoveredParents.add(parent);
      recoverStaleTempDirs(parent, PREFIX);
    }
    const previous = process.umask(0o077);
    try {
      const dir = new PrivateTempDir(mkdtempSync(join(parent, PREFIX)));
      // The owner marker lets a later run recognize residue of a dead process.
      writeFileSync(join(dir.path, '.owner'), `${JSON.stringify(currentOwnerMarker())}\n`, {
        mode: 0o600,
      });
      live.add(dir);
      installExitHandlers();
      return dir;
    } finally {
      process.umask(previous);
    }
  }

  /** A fresh private file path inside the directory (not created). */
  file(suffix: string): string {
    this.counter += 1;
    return join(this.path, `${this.counter}-${suffix}`);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    live.delete(this);
    rmSync(this.path, { recursive: true, force: true });
  }
}

/** Disposes every live temp dir; used by signal handlers before exiting. */
export function disposeAllTempDirs(): void {
  for (const dir of [...live]) dir.dispose();
}
