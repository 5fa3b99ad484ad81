/** Finds the Composer databases of a Cursor `User` directory without reading any payload. */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fingerprintFile, sourceKeyFor } from '../fs/source-identity.js';
import type { Carrier, DiscoveredSource, SourceKind } from '../source-adapter.js';

const SQLITE_SIDECARS = ['-wal'] as const;

/** Derives a source's opaque key from its kind and physical path (a backup keys by archive entry). */
export type SourceKeyDeriver = (kind: SourceKind, locator: string) => string;

export function discoverUserDir(
  userDir: string,
  carrier: Carrier,
  keyFor: SourceKeyDeriver = sourceKeyFor,
): DiscoveredSource[] {
  const sources: DiscoveredSource[] = [];
  const globalDb = join(userDir, 'globalStorage', 'state.vscdb');
  if (existsSync(globalDb)) {
    sources.push({
      sourceKey: keyFor('composer-global-db', globalDb),
      kind: 'composer-global-db',
      carrier,
      locator: globalDb,
      fingerprint: fingerprintFile(globalDb, SQLITE_SIDECARS),
    });
  }
  const workspaceRoot = join(userDir, 'workspaceStorage');
  if (existsSync(workspaceRoot)) {
    const entries = readdirSync(workspaceRoot, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    for (const name of entries) {
      const db = join(workspaceRoot, name, 'state.vscdb');
      if (!existsSync(db)) continue;
      sources.push({
        sourceKey: keyFor('composer-workspace-db', db),
        kind: 'composer-workspace-db',
        carrier,
        locator: db,
        fingerprint: fingerprintFile(db, SQLITE_SIDECARS),
      });
    }
  }
  return sources;
}
