/**
 * A store.db message leaf is plain JSON (optional BOM) or a protobuf message whose field 4
 * (length-delimited) holds the JSON. Returns the JSON object, or null when neither form decodes.
 */
import { blobKind } from '../agentkv/agentkv-blob.js';
import { parseStrictJson } from '../text/strict-json.js';
import { decodeStrictUtf8 } from '../text/strict-utf8.js';
import type {
  StoreDbBytesContribution,
  StoreDbBytesData,
  StoreDbContribution,
  StoreDbData,
  StoreLeaf,
} from './store-contribution.js';

/** A 12-byte IV and a 16-byte tag (AES-GCM, §7): shorter opaque bytes cannot be a sealed blob. */
const MIN_SEALED_BYTES = 28;

/** Neither JSON, protobuf nor text (§7): possibly encrypted, counted and never decrypted. */
export function opaqueBlob(bytes: Uint8Array): boolean {
  return bytes.length >= MIN_SEALED_BYTES && blobKind(bytes) === 'opaque';
}

/**
 * Whether the bytes can be a JSON object: `{` after an optional BOM and JSON whitespace. Protobuf
 * leaves never are, and ruling them out here spares a thrown decode or parse error per leaf.
 */
function opensObject(bytes: Uint8Array): boolean {
  let at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (bytes[at] === 0x20 || bytes[at] === 0x09 || bytes[at] === 0x0a || bytes[at] === 0x0d) at++;
  return bytes[at] === 0x7b;
}

function jsonObject(bytes: Uint8Array): Record<string, unknown> | null {
  if (!opensObject(bytes)) return null;
  try {
    const value: unknown = parseStrictJson(decodeStrictUtf8(bytes, 'sqlite'), 'sqlite');
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function readVarint(bytes: Uint8Array, at: number): { value: number; next: number } | null {
  let value = 0;
  let scale = 1;
  for (let i = at; i < bytes.length && i < at + 10; i++) {
    const byte = bytes[i] as number;
    value += (byte & 0x7f) * scale;
    scale *= 128;
    if ((byte & 0x80) === 0) return { value, next: i + 1 };
  }
  return null;
}

/** The payloads of every length-delimited field 4, in order; stops at the first wire error. */
function field4Payloads(bytes: Uint8Array): Uint8Array[] {
  const payloads: Uint8Array[] = [];
  let at = 0;
  while (at < bytes.length) {
    const key = readVarint(bytes, at);
    if (!key) break;
    const field = Math.floor(key.value / 8);
    const wire = key.value % 8;
    at = key.next;
    if (wire === 0) {
      const skipped = readVarint(bytes, at);
      if (!skipped) break;
      at = skipped.next;
    } else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else if (wire === 2) {
      const length = readVarint(bytes, at);
      if (!length || length.next + length.value > bytes.length) break;
      if (field === 4) payloads.push(bytes.subarray(length.next, length.next + length.value));
      at = length.next + length.value;
    } else break;
  }
  return payloads;
}

export function decodeLeaf(bytes: Uint8Array): Record<string, unknown> | null {
  const direct = jsonObject(bytes);
  if (direct) return direct;
  for (const payload of field4Payloads(bytes)) {
    const wrapped = jsonObject(payload);
    if (wrapped) return wrapped;
  }
  return null;
}

function decodedLeaf(hash: string, bytes: Uint8Array | null): StoreLeaf {
  if (bytes === null) return { hash, message: null, problem: 'missing-blob' };
  const message = decodeLeaf(bytes);
  if (message !== null) return { hash, message, problem: null };
  return { hash, message, problem: opaqueBlob(bytes) ? 'possibly-encrypted-leaf' : 'malformed-leaf' };
}

/** The leaves of a read store.db decoded; pure, so it runs wherever the session is resolved. */
export function decodeStoreDb(data: StoreDbBytesData): StoreDbData {
  const { leafBytes, treeProblems, ...rest } = data;
  return { ...rest, leaves: leafBytes.map((leaf) => decodedLeaf(leaf.hash, leaf.bytes)), treeProblems };
}

export function decodeStoreDbContribution(contribution: StoreDbBytesContribution): StoreDbContribution {
  return { ...contribution, kind: 'store-db', data: decodeStoreDb(contribution.data) };
}
