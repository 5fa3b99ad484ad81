/**
 * Reads `meta.json` facts under a small bound: strict UTF-8 JSON; only the documented fields are
 * kept (a secret or unknown field never leaves this function).
 */
import { readFileSync, statSync } from 'node:fs';
import { decodeStrictUtf8 } from '../text/strict-utf8.js';
import type { MetaJsonFacts } from './store-contribution.js';

/** meta.json is a few hundred bytes; anything past this bound is not a supported metadata file. */
const META_JSON_MAX_BYTES = 1024 * 1024;
const EPOCH_MS_FLOOR = 1e12;

const UNSUPPORTED: MetaJsonFacts = {
  supported: false,
  hasConversation: null,
  cwd: null,
  title: null,
  createdAtMs: null,
  updatedAtMs: null,
};

export function epochMsField(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value > EPOCH_MS_FLOOR
    ? Math.trunc(value)
    : null;
}

export function stringField(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

export function parseMetaJson(bytes: Uint8Array): MetaJsonFacts {
  let value: unknown;
  try {
    value = JSON.parse(decodeStrictUtf8(bytes, 'meta-json'));
  } catch {
    return UNSUPPORTED;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return UNSUPPORTED;
  const meta = value as Record<string, unknown>;
  if (
    meta.schemaVersion !== undefined &&
    !(typeof meta.schemaVersion === 'number' && Number.isFinite(meta.schemaVersion))
  )
    return UNSUPPORTED;
  return {
    supported: true,
    hasConversation: typeof meta.hasConversation === 'boolean' ? meta.hasConversation : null,
    cwd: stringField(meta.cwd),
    title: stringField(meta.title),
    createdAtMs: epochMsField(meta.createdAtMs),
    updatedAtMs: epochMsField(meta.updatedAtMs),
  };
}

/** Facts of the meta.json at `path`, or null when there is none. */
export function readMetaJson(path: string): MetaJsonFacts | null {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat?.isFile()) return null;
  if (stat.size > META_JSON_MAX_BYTES) return UNSUPPORTED;
  try {
    return parseMetaJson(readFileSync(path));
  } catch {
    return UNSUPPORTED;
  }
}
