/**
 * Canonical JSON v1, the input of every identity and digest hash: no whitespace, object keys in
 * Unicode code-point order, undefined members omitted, undefined array elements as null;
 * non-finite numbers, bigint, cycles and non-plain objects are rejected.
 */
import { createHash } from 'node:crypto';
import { InternalError } from '../shared/errors.js';

function compareCodePoints(a: string, b: string): number {
  // UTF-16 order differs from code-point order only around surrogates; compare by code point.
  const ai = a[Symbol.iterator]();
  const bi = b[Symbol.iterator]();
  for (;;) {
    const x = ai.next();
    const y = bi.next();
    if (x.done || y.done) return x.done ? (y.done ? 0 : -1) : 1;
    const dx = x.value.codePointAt(0)!;
    const dy = y.value.codePointAt(0)!;
    if (dx !== dy) return dx - dy;
  }
}

function reject(reason: string): never {
  throw new InternalError('CANONICAL_JSON_INVALID', `Value cannot be canonicalized: ${reason}`, { reason });
}

function write(value: unknown, out: string[], stack: Set<object>): void {
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
    const keys = Object.keys(object)
      .filter((key) => (object as Record<string, unknown>)[key] !== undefined)
      .sort(compareCodePoints);
    out.push('{');
    keys.forEach((key, index) => {
      if (index > 0) out.push(',');
      out.push(JSON.stringify(key), ':');
      write((object as Record<string, unknown>)[key], out, stack);
    });
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

export function canonicalHash(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
