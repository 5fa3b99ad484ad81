/**
 * The store.db `meta` row '0': hex-encoded UTF-8 JSON. Only `name`, `latestRootBlobId`, `createdAt`,
 * `lastUsedModel` and the `subagentInfo` link are kept, so `blobEncryptionKey` never leaves this function. An absent root is an
 * empty conversation; a root that is not a 64-hex blob ID is rejected.
 */

import { readTimeField, type TimeProblem } from '../../shared/time/read-instant.js';
import { type SubagentEvidence, storeSubagentInfo } from '../subagent/subagent-evidence.js';
import { parseStrictJson } from '../text/strict-json.js';
import { decodeStrictUtf8, SourceEncodingInvalid } from '../text/strict-utf8.js';
import { stringField } from './meta-json.js';

export interface StoreMetaRow {
  name: string | null;
  latestRootBlobId: string | null;
  createdAtMs: number | null;
  timeProblems: TimeProblem[];
  subagent: SubagentEvidence | null;
  /** `lastUsedModel` as stored (a string), absent (null), or present with another type (`invalid`). */
  lastUsedModel: StoredModel | null;
}

export interface StoredModel {
  value: string | null;
  invalid: boolean;
}

function storedModel(value: unknown): StoredModel | null {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? { value, invalid: false } : { value: null, invalid: true };
}

export class StoreMetaInvalid extends Error {
  constructor(
    readonly reason:
      | 'odd-length'
      | 'non-hex'
      | 'not-json-object'
      | 'invalid-encoding'
      | 'invalid-root-blob-id',
  ) {
    super(`store.db meta row is invalid: ${reason}`);
  }
}

const HEX = /^[0-9a-fA-F]*$/;
const HASH = /^[0-9a-fA-F]{64}$/;

export function decodeStoreMetaRow(hex: string): StoreMetaRow {
  if (hex.length % 2 !== 0) throw new StoreMetaInvalid('odd-length');
  if (!HEX.test(hex)) throw new StoreMetaInvalid('non-hex');
  let text: string;
  try {
    text = decodeStrictUtf8(Buffer.from(hex, 'hex'), 'sqlite');
  } catch {
    throw new StoreMetaInvalid('invalid-encoding');
  }
  let value: unknown;
  try {
    value = parseStrictJson(text, 'sqlite');
  } catch (error) {
    throw new StoreMetaInvalid(
      error instanceof SourceEncodingInvalid ? 'invalid-encoding' : 'not-json-object',
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new StoreMetaInvalid('not-json-object');
  const meta = value as Record<string, unknown>;
  const timeProblems: TimeProblem[] = [];
  return {
    name: stringField(meta.name),
    latestRootBlobId: rootBlobId(meta.latestRootBlobId),
    createdAtMs: readTimeField(meta.createdAt, 'store.meta.createdAt', timeProblems),
    timeProblems,
    subagent: storeSubagentInfo(meta.subagentInfo),
    lastUsedModel: storedModel(meta.lastUsedModel),
  };
}

function rootBlobId(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !HASH.test(value)) throw new StoreMetaInvalid('invalid-root-blob-id');
  return value.toLowerCase();
}
