/**
 * Canonical JSON v1, the input of every identity and digest hash: no whitespace, object keys in
 * Unicode code-point order, undefined members omitted, undefined array elements as null;
 * non-finite numbers, bigint, cycles and non-plain objects are rejected.
 */
import { createHash } from 'node:crypto';
import { InternalError } from '../shared/errors.js';

/** Maps a UTF-16 unit ≥ U+D800 so that surrogates (code points above U+FFFF) sort after U+E000–U+FFFF. */
function codePointRank(unit: number): number {
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

function compareCodePoints(a: string, b: string): number {
  // UTF-16 order differs from code-point order only between a surrogate and a unit ≥ U+E000.
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    return x >= 0xd800 && y >= 0xd800 ? codePointRank(x) - codePointRank(y) : x - y;
  }
  return a.length - b.length;
}

function reject(reason: string): never {
  throw new InternalError('CANONICAL_JSON_INVALID', `Value cannot be canonicalized: ${reason}`, { reason });
}

/** Receives canonical JSON text piece by piece (an array to join, or a hash fed in chunks). */
interface Sink {
  push(piece: string): void;
}

function write(value: unknown, out: Sink, stack: Set<object>): void {
  if (value === null) {
    out.push('null');
    return;
  }
  switch (typeof value) {
    case 'string':
    case 'boolean':
      out.push(JSON.stringify(value));
      return;
    case 'number':
      if (!Number.isFinite(value)) reject('non-finite number');
      out.push(JSON.stringify(value));
      return;
    case 'bigint':
      reject('bigint');
      break;
    case 'object':
      break;
    default:
      reject(typeof value);
  }
  const object = value as object;
  if (stack.has(object)) reject('cycle');
  stack.add(object);
  if (Array.isArray(object)) {
    out.push('[');
    for (let i = 0; i < object.length; i++) {
      if (i > 0) out.push(',');
      const item: unknown = object[i];
      if (item === undefined) out.push('null');
      else write(item, out, stack);
    }
    out.push(']');
  } else {
    const proto = Object.getPrototypeOf(object);
    if (proto !== Object.prototype && proto !== null) reject('non-plain object');
    const record = object as Record<string, unknown>;
    const keys: string[] = [];
    for (const key of Object.keys(record)) if (record[key] !== undefined) keys.push(key);
    keys.sort(compareCodePoints);
    out.push('{');
    for (let i = 0; i < keys.length; i++) {
      if (i > 0) out.push(',');
      out.push(JSON.stringify(keys[i]));
      out.push(':');
      write(record[keys[i]!], out, stack);
    }
    out.push('}');
  }
  stack.delete(object);
}

export function canonicalJson(value: unknown): string {
  if (value === undefined) reject('undefined');
  const out: string[] = [];
  write(value, out, new Set());
  return out.join('');
}

export function sha256Hex(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('hex');
}

const HASH_CHUNK_CHARS = 1 << 16;

/** SHA-256 of canonical JSON, fed to the hash in chunks so a large session is never one string. */
export function canonicalHash(value: unknown): string {
  if (value === undefined) reject('undefined');
  const hash = createHash('sha256');
  let pending = '';
  const sink: Sink = {
    push(piece) {
      pending += piece;
      if (pending.length >= HASH_CHUNK_CHARS) {
        hash.update(pending);
        pending = '';
      }
    },
  };
  write(value, sink, new Set());
  return hash.update(pending).digest('hex');
}
