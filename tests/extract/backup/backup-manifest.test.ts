import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../../src/extract/backup/backup-manifest.js';
import type { EtlError } from '../../../src/shared/errors.js';

const SUM = `sha256:${'ab'.repeat(32)}`;
const GLOBAL = { path: 'globalStorage/state.vscdb', size: 10, checksum: SUM, type: 'global-db' };
const WS_DB = { path: 'workspaceStorage/w1/state.vscdb', size: 5, checksum: SUM, type: 'workspace-db' };
const WS_JSON = {
  path: 'workspaceStorage/w1/workspace.json',
  size: 3,
  checksum: SUM,
  type: 'workspace-json',
};

function manifest(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { version: '1.0.0', sourcePlatform: 'linux', files: [GLOBAL, WS_DB, WS_JSON], ...extra };
}

const names = [
  'globalStorage/state.vscdb',
  'workspaceStorage/w1/state.vscdb',
  'workspaceStorage/w1/workspace.json',
  'manifest.json',
];

function parse(doc: unknown, entryNames = names) {
  return parseManifest(Buffer.from(JSON.stringify(doc, null, 2)), entryNames);
}

function reason(doc: unknown, entryNames = names): unknown {
  try {
    parse(doc, entryNames);
    return null;
  } catch (error) {
    expect((error as EtlError).code).toBe('BACKUP_MANIFEST_INVALID');
    return (error as EtlError).details.reason;
  }
}

const workspace = (over: Record<string, unknown> = {}) => ({
  workspaceId: 'w1',
  workspacePath: '/home/dev/a',
  sessionIds: ['a', 'b'],
  globalCounterpartSessionIds: ['b'],
  linkedGlobalSessionIds: ['c'],
  ...over,
});

describe('backup manifest v1', () => {
  it('parses files with lowercase checksums, types and workspace IDs', () => {
    const parsed = parse(
      manifest({
        files: [{ ...GLOBAL, checksum: SUM.toUpperCase().replace('SHA256', 'sha256') }, WS_DB, WS_JSON],
      }),
    );
    expect(parsed.files.map((f) => [f.type, f.workspaceId, f.sha256])).toEqual([
      ['global-db', null, 'ab'.repeat(32)],
      ['workspace-db', 'w1', 'ab'.repeat(32)],
      ['workspace-json', 'w1', 'ab'.repeat(32)],
    ]);
    expect(parsed.inventory).toBeNull();
  });

  it('rejects another version, a bad platform, bad sizes and bad checksums', () => {
    expect(reason(manifest({ version: '2.0.0' }))).toBe('unsupported-version');
    expect(reason(manifest({ sourcePlatform: 'beos' }))).toBe('source-platform');
    expect(reason(manifest({ files: [{ ...GLOBAL, size: -1 }] }))).toBe('file-size');
    expect(reason(manifest({ files: [{ ...GLOBAL, size: 1.5 }] }))).toBe('file-size');
    expect(reason(manifest({ files: [{ ...GLOBAL, checksum: 'md5:00' }] }))).toBe('file-checksum');
    expect(reason(manifest({ files: [{ ...GLOBAL, type: 'sqlite' }] }))).toBe('file-type');
  });

  it('path and type must pair exactly; the manifest type never names a real path', () => {
    expect(reason(manifest({ files: [{ ...GLOBAL, type: 'workspace-db' }] }))).toBe('path-type-mismatch');
    expect(reason(manifest({ files: [{ ...WS_JSON, type: 'workspace-db' }] }))).toBe('path-type-mismatch');
    expect(reason(manifest({ files: [{ ...GLOBAL, type: 'manifest' }] }))).toBe('path-type-mismatch');
    expect(reason(manifest({ files: [{ ...WS_DB, path: 'workspaceStorage/../state.vscdb' }] }))).toBe(
      'path-type-mismatch',
    );
    expect(reason(manifest({ files: [{ ...WS_DB, path: 'elsewhere/state.vscdb' }] }))).toBe(
      'path-type-mismatch',
    );
  });

  it('rejects duplicate paths after NFC + lowercase and undeclared archive entries', () => {
    expect(reason(manifest({ files: [WS_DB, { ...WS_DB, path: 'workspaceStorage/W1/state.vscdb' }] }))).toBe(
      'duplicate-path',
    );
    expect(reason(manifest(), [...names, 'workspaceStorage/w2/state.vscdb'])).toBe('undeclared-entry');
  });

  it('rejects a BOM, invalid UTF-8 and non-JSON text', () => {
    expect(() => parseManifest(Buffer.from(`\uFEFF${JSON.stringify(manifest())}`), names)).toThrow(
      /manifest/,
    );
    expect(() => parseManifest(Buffer.from([0x7b, 0xff, 0x7d]), names)).toThrow(/not-strict-utf8/);
    expect(() => parseManifest(Buffer.from('{"k":"\\ud800"}'), names)).toThrow(/not-strict-utf8/);
    expect(() => parseManifest(Buffer.from('{'), names)).toThrow(/not-json/);
  });
});

describe('composer workspace inventory schemaVersion 1', () => {
  const withInventory = (workspaces: unknown[], files?: unknown[]) =>
    manifest({ ...(files ? { files } : {}), composerWorkspaceInventory: { schemaVersion: 1, workspaces } });

  it('accepts a valid inventory', () => {
    expect(parse(withInventory([workspace()])).inventory?.workspaces[0]?.sessionIds).toEqual(['a', 'b']);
  });

  it('enforces its ordering, subset and disjointness rules', () => {
    expect(reason(manifest({ composerWorkspaceInventory: { schemaVersion: 2, workspaces: [] } }))).toBe(
      'inventory-schema-version',
    );
    expect(reason(withInventory([workspace({ sessionIds: ['b', 'a'] })]))).toBe(
      'inventory-session-ids-order',
    );
    expect(reason(withInventory([workspace({ sessionIds: ['a', 'a', 'b'] })]))).toBe(
      'inventory-session-ids-order',
    );
    expect(reason(withInventory([workspace({ globalCounterpartSessionIds: ['z'] })]))).toBe(
      'inventory-counterparts-not-subset',
    );
    expect(reason(withInventory([workspace({ linkedGlobalSessionIds: ['a'] })]))).toBe(
      'inventory-linked-overlap',
    );
    expect(reason(withInventory([workspace({ workspacePath: '' })]))).toBe('inventory-workspace-path');
  });

  it('needs exactly one entry per workspace database, in code-point order', () => {
    expect(reason(withInventory([]))).toBe('inventory-workspace-set');
    expect(reason(withInventory([workspace(), workspace({ workspaceId: 'w0' })]))).toBe(
      'inventory-workspace-order',
    );
  });

  it('global ID arrays must be empty without a global database', () => {
    const files = [WS_DB, WS_JSON];
    const entryNames = names.filter((n) => !n.startsWith('globalStorage'));
    expect(reason(withInventory([workspace()], files), entryNames)).toBe(
      'inventory-global-ids-without-global-db',
    );
    const ok = withInventory(
      [workspace({ globalCounterpartSessionIds: [], linkedGlobalSessionIds: [] })],
      files,
    );
    expect(parse(ok, entryNames).inventory?.workspaces).toHaveLength(1);
  });
});
