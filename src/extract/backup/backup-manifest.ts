/**
 * Backup envelope manifest v1 (`version: "1.0.0"`): the declared files with size, SHA-256 and a
 * type that must pair with the path, validated whole before any payload entry is extracted.
 */
import { parseStrictJson } from '../text/strict-json.js';
import { decodeStrictUtf8, SourceEncodingInvalid } from '../text/strict-utf8.js';
import { BackupManifestInvalid } from './backup-errors.js';
import { compareCodePoints } from './code-point-order.js';
import { checkEntryName, foldedName } from './entry-name.js';
import { parseInventory, type WorkspaceInventory } from './workspace-inventory.js';

export const MANIFEST_NAME = 'manifest.json';
export const MANIFEST_MAX_BYTES = 16 * 1024 * 1024;

export type BackupFileType = 'global-db' | 'workspace-db' | 'workspace-json';

export interface ManifestFile {
  path: string;
  size: number;
  /** Lowercase hex SHA-256. */
  sha256: string;
  type: BackupFileType;
  /** The `workspaceStorage/<id>` segment; null for the global DB. */
  workspaceId: string | null;
}

export interface BackupManifest {
  files: ManifestFile[];
  inventory: WorkspaceInventory | null;
}

const CHECKSUM = /^sha256:([0-9a-f]{64})$/i;
const PLATFORMS = new Set(['darwin', 'win32', 'linux']);
const TYPES = new Set<string>(['global-db', 'workspace-db', 'workspace-json', 'manifest']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The type a path must carry, and its workspace ID; null when the path names no archivable file. */
function pathRole(path: string): { type: BackupFileType; workspaceId: string | null } | null {
  if (path === 'globalStorage/state.vscdb') return { type: 'global-db', workspaceId: null };
  const match = /^workspaceStorage\/([^/]+)\/(state\.vscdb|workspace\.json)$/.exec(path);
  if (!match) return null;
  const id = match[1]!;
  if (!checkEntryName(Buffer.from(id, 'utf8'), false).ok) return null;
  return { type: match[2] === 'state.vscdb' ? 'workspace-db' : 'workspace-json', workspaceId: id };
}

function parseFile(value: unknown): ManifestFile {
  if (!isRecord(value)) throw new BackupManifestInvalid('file-entry');
  const { path, size, checksum, type } = value;
  if (typeof path !== 'string' || path.length === 0) throw new BackupManifestInvalid('file-path');
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0)
    throw new BackupManifestInvalid('file-size');
  const sum = typeof checksum === 'string' ? CHECKSUM.exec(checksum) : null;
  if (!sum) throw new BackupManifestInvalid('file-checksum');
  if (typeof type !== 'string' || !TYPES.has(type)) throw new BackupManifestInvalid('file-type');
  const role = pathRole(path.normalize('NFC'));
  if (role === null || role.type !== type) throw new BackupManifestInvalid('path-type-mismatch');
  return { path, size, sha256: sum[1]!.toLowerCase(), type: role.type, workspaceId: role.workspaceId };
}

function decodeManifestText(bytes: Buffer): unknown {
  let text: string;
  try {
    text = decodeStrictUtf8(bytes, 'zip', false);
  } catch (error) {
    if (error instanceof SourceEncodingInvalid) throw new BackupManifestInvalid('not-strict-utf8');
    throw error;
  }
  try {
    return parseStrictJson(text, 'zip');
  } catch (error) {
    if (error instanceof SourceEncodingInvalid) throw new BackupManifestInvalid('not-strict-utf8');
    throw new BackupManifestInvalid('not-json');
  }
}

/** Parses and validates a manifest; `entryNames` are the archive's (validated) entry names. */
export function parseManifest(bytes: Buffer, entryNames: readonly string[]): BackupManifest {
  if (bytes.length > MANIFEST_MAX_BYTES) throw new BackupManifestInvalid('too-large');
  const doc = decodeManifestText(bytes);
  if (!isRecord(doc) || doc.version !== '1.0.0') throw new BackupManifestInvalid('unsupported-version');
  if (doc.sourcePlatform !== undefined && !PLATFORMS.has(doc.sourcePlatform as string))
    throw new BackupManifestInvalid('source-platform');
  if (!Array.isArray(doc.files)) throw new BackupManifestInvalid('files');
  const files = doc.files.map(parseFile);
  const folded = new Set<string>();
  for (const file of files) {
    const key = foldedName(file.path);
    if (folded.has(key)) throw new BackupManifestInvalid('duplicate-path');
    folded.add(key);
  }
  const declared = new Set(files.map((file) => file.path.normalize('NFC')));
  for (const name of entryNames) {
    if (name !== MANIFEST_NAME && !declared.has(name.normalize('NFC')))
      throw new BackupManifestInvalid('undeclared-entry');
  }
  const workspaceDbIds = files
    .filter((file) => file.type === 'workspace-db')
    .map((file) => file.workspaceId!)
    .sort(compareCodePoints);
  const hasGlobal = files.some((file) => file.type === 'global-db');
  const inventory =
    doc.composerWorkspaceInventory === undefined
      ? null
      : parseInventory(doc.composerWorkspaceInventory, workspaceDbIds, hasGlobal);
  return { files, inventory };
}
