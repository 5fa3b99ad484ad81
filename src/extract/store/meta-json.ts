/**
 * Reads `meta.json` facts under a small bound: strict UTF-8 JSON, documented fields only (a secret
 * never leaves). A `schemaVersion` other than 1 is unsupported; a documented field of another type
 * is damage: `problem` names it, that field is unknown and the well-typed ones are kept.
 */
import { closeSync } from 'node:fs';
import { readTimeField, type TimeProblem } from '../../shared/time/read-instant.js';
import { openSizedRegularFileSync, readOpenedFileSync } from '../fs/open-regular-file.js';
import { hasWrongTypedField } from '../text/field-types.js';
import { parseStrictJson } from '../text/strict-json.js';
import { decodeStrictUtf8, SourceEncodingInvalid } from '../text/strict-utf8.js';
import type { MetaJsonFacts } from './store-contribution.js';

/** meta.json is a few hundred bytes; anything past this bound is not a supported metadata file. */
const META_JSON_MAX_BYTES = 1024 * 1024;

const SUPPORTED_SCHEMA_VERSION = 1;

/** Time fields are typed by `readTimeField`, which reports its own rejections. */
const FIELD_TYPES = { hasConversation: 'boolean', cwd: 'string', title: 'string' } as const;

function unsupported(problem: string): MetaJsonFacts {
  return {
    problem,
    hasConversation: null,
    cwd: null,
    title: null,
    createdAtMs: null,
    updatedAtMs: null,
    timeProblems: [],
  };
}

export function stringField(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

export function parseMetaJson(bytes: Uint8Array): MetaJsonFacts {
  let text: string;
  try {
    text = decodeStrictUtf8(bytes, 'meta-json');
  } catch {
    return unsupported('invalid-encoding');
  }
  let value: unknown;
  try {
    value = parseStrictJson(text, 'meta-json');
  } catch (error) {
    return unsupported(error instanceof SourceEncodingInvalid ? 'invalid-encoding' : 'invalid-json');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return unsupported('not-an-object');
  const meta = value as Record<string, unknown>;
  if (
    meta.schemaVersion !== undefined &&
    !(typeof meta.schemaVersion === 'number' && Number.isFinite(meta.schemaVersion))
  )
    return unsupported('invalid-schema-version');
  if (meta.schemaVersion !== undefined && meta.schemaVersion !== SUPPORTED_SCHEMA_VERSION)
    return unsupported('unknown-schema-version');
  const timeProblems: TimeProblem[] = [];
  return {
    problem: hasWrongTypedField(meta, FIELD_TYPES) ? 'wrong-field-type' : null,
    hasConversation: typeof meta.hasConversation === 'boolean' ? meta.hasConversation : null,
    cwd: stringField(meta.cwd),
    title: stringField(meta.title),
    createdAtMs: readTimeField(meta.createdAtMs, 'meta.json.createdAtMs', timeProblems),
    updatedAtMs: readTimeField(meta.updatedAtMs, 'meta.json.updatedAtMs', timeProblems),
    timeProblems,
  };
}

/** Facts of the meta.json entry at `path`; a FIFO or device there is never opened. */
export function readMetaJson(path: string): MetaJsonFacts {
  let fd: number;
  let size: number;
  try {
    ({ fd, size } = openSizedRegularFileSync(path));
  } catch (error) {
    return unsupported((error as NodeJS.ErrnoException).code ?? 'open-failed');
  }
  try {
    const bytes = readOpenedFileSync(fd, size, META_JSON_MAX_BYTES);
    return bytes === null ? unsupported('too-large') : parseMetaJson(bytes);
  } catch (error) {
    return unsupported((error as NodeJS.ErrnoException).code ?? 'read-failed');
  } finally {
    closeSync(fd);
  }
}
