/**
 * Canonical JSON v1, the input of every identity and digest hash: no whitespace, object keys in
 * Unicode code-point order, undefined members omitted, undefined array elements as null;
 * non-finite numbers, bigint, cycles and non-plain objects are rejected.
 */
import { createHash } from 'node:crypto';
import { InternalError } from '../shared/errors.js';
import { Utf8HashSink } from './utf8-hash-sink.js';

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

/** Receives canonical JSON text piece by piece (an array to join, or a hash sink). */
interface Sink {
  push(piece: string): void;
}

function writeScalar(value: unknown, out: Sink): void {
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
    default:
      reject(typeof value);
  }
}

/** Writes an object's opening brace and returns its keys with defined values, in code-point order. */
function openObject(object: object, out: Sink): string[] {
  const proto = Object.getPrototypeOf(object);
  if (proto !== Object.prototype && proto !== null) reject('non-plain object');
  const record = object as Record<string, unknown>;
  const keys: string[] = [];
  for (const key of Object.keys(record)) if (record[key] !== undefined) keys.push(key);
  keys.sort(compareCodePoints);
  out.push('{');
  return keys;
}

/**
 * Walks with an explicit stack instead of recursion, so arbitrarily deep source JSON (which
 * `JSON.parse` accepts) is canonicalized instead of overflowing the call stack. The stack is three
 * parallel arrays: the open container, its sorted keys (null for an array) and the next member.
 */
function write(root: unknown, out: Sink): void {
  const containers: object[] = [];
  const keyLists: (string[] | null)[] = [];
  const positions: number[] = [];
  const path = new Set<object>();
  let value = root;
  for (;;) {
    if (typeof value === 'string') out.push(JSON.stringify(value));
    else if (typeof value !== 'object' || value === null) writeScalar(value, out);
    else {
      if (path.has(value)) reject('cycle');
      path.add(value);
      containers.push(value);
      positions.push(0);
      if (Array.isArray(value)) {
        out.push('[');
        keyLists.push(null);
      } else keyLists.push(openObject(value, out));
    }
    // Close finished containers until one has a next member, which becomes `value`.
    for (;;) {
      const depth = containers.length - 1;
      if (depth < 0) return;
      const container = containers[depth]!;
      const keys = keyLists[depth]!;
      const i = positions[depth]!;
      if (keys === null) {
        const items = container as unknown[];
        if (i < items.length) {
          positions[depth] = i + 1;
          if (i > 0) out.push(',');
          const item = items[i];
          value = item === undefined ? null : item;
          break;
        }
        out.push(']');
      } else {
        if (i < keys.length) {
          positions[depth] = i + 1;
          const key = keys[i]!;
          out.push(`${i > 0 ? ',' : ''}${JSON.stringify(key)}:`);
          value = (container as Record<string, unknown>)[key];
          break;
        }
        out.push('}');
      }
      containers.pop();
      keyLists.pop();
      positions.pop();
      path.delete(container);
    }
  }
}

export function canonicalJson(value: unknown): string {
  if (value === undefined) reject('undefined');
  const out: string[] = [];
  write(value, out);
  return out.join('');
}

export function sha256Hex(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('hex');
}

/** SHA-256 of canonical JSON, encoded piece by piece so a large session is never one string. */
export function canonicalHash(value: unknown): string {
  if (value === undefined) reject('undefined');
  const sink = new Utf8HashSink();
  write(value, sink);
  return sink.digestHex();
}
