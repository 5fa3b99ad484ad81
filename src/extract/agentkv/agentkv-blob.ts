/**
 * One `agentKv:blob:<sha256>` value (cursor-formats §1.2): raw bytes or legacy hex text, a single
 * 0x00 byte for the empty blob; its kind by first byte; its content hash checked against the key.
 */
import { createHash } from 'node:crypto';
import { decodeStrictUtf8 } from '../text/strict-utf8.js';
import { protobufFields } from './protobuf-fields.js';

export const AGENTKV_BLOB_PREFIX = 'agentKv:blob:';
export const BLOB_KINDS = ['json', 'protobuf', 'text', 'opaque', 'empty'] as const;
export type BlobKind = (typeof BLOB_KINDS)[number];

export interface DecodedBlob {
  kind: BlobKind;
  encoding: 'binary' | 'hex-text';
  /** The blob content (hex text decoded). */
  bytes: Uint8Array;
  /** True when SHA-256 of the stored or decoded bytes equals the key's hash. */
  hashMatches: boolean;
  /** The parsed value of a `json` blob. */
  json: unknown;
}

const BLOB_ID = /^[0-9a-f]{64}$/;

/** The 64-hex blob ID a key names, or null for a malformed key. */
export function blobIdOfKey(key: string): string | null {
  const id = key.slice(AGENTKV_BLOB_PREFIX.length);
  return key.startsWith(AGENTKV_BLOB_PREFIX) && BLOB_ID.test(id) ? id : null;
}

function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function isHexText(bytes: Uint8Array): boolean {
  if (bytes.length === 0 || bytes.length % 2 !== 0) return false;
  for (const b of bytes) if (!((b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x66))) return false;
  return true;
}

function utf8(bytes: Uint8Array): string | null {
  try {
    return decodeStrictUtf8(bytes, 'sqlite');
  } catch {
    return null;
  }
}

function isPrintable(text: string): boolean {
  return !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text);
}

function classify(bytes: Uint8Array): { kind: BlobKind; json: unknown } {
  if (bytes.length === 0 || (bytes.length === 1 && bytes[0] === 0)) return { kind: 'empty', json: undefined };
  const text = utf8(bytes);
  if (bytes[0] === 0x7b && text !== null) {
    try {
      return { kind: 'json', json: JSON.parse(text) };
    } catch {
      // Not JSON after all: judged as text below.
    }
  }
  // A protobuf tag of a low field number is a control byte; text starts with a printable character.
  if (bytes[0]! < 0x20 && protobufFields(bytes) !== null) return { kind: 'protobuf', json: undefined };
  if (text !== null && isPrintable(text)) return { kind: 'text', json: undefined };
  return { kind: 'opaque', json: undefined };
}

/** The kind of decoded content bytes (§1.2, §7): `opaque` is neither JSON, protobuf nor text. */
export function blobKind(bytes: Uint8Array): BlobKind {
  return classify(bytes).kind;
}

/** Decodes a stored value; the hash decides between the raw and the hex reading when both fit. */
export function decodeBlob(blobId: string, stored: Uint8Array): DecodedBlob {
  const rawMatches = sha256Hex(stored) === blobId;
  let bytes = stored;
  let encoding: DecodedBlob['encoding'] = 'binary';
  let hashMatches = rawMatches;
  if (!rawMatches && isHexText(stored)) {
    const decoded = Buffer.from(Buffer.from(stored).toString('latin1'), 'hex');
    const decodedMatches = sha256Hex(decoded) === blobId;
    // A hex-shaped value that parses as JSON stays JSON (cursor-formats §1.2 reader rule).
    if (decodedMatches || classify(stored).kind !== 'json') {
      bytes = decoded;
      encoding = 'hex-text';
      hashMatches = decodedMatches;
    }
  }
  if (!hashMatches && bytes.length === 1 && bytes[0] === 0)
    hashMatches = sha256Hex(new Uint8Array()) === blobId;
  return { ...classify(bytes), encoding, bytes, hashMatches };
}
