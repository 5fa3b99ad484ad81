/**
 * Canonical JSON v1, the input of every identity and digest hash: no whitespace, object keys in
 * Unicode code-point order, undefined members omitted, undefined array elements as null;
 * non-finite numbers, bigint, cycles and non-plain objects are rejected.
 */
import { createHash } from 'node:crypto';
import { InternalError } from '../errors.js';
import { type KeyOrder, keyOrder } from './canonical-key-order.js';
import { Utf8HashSink } from './utf8-hash-sink.js';

function reject(reason: string): never {
  throw new InternalError('CANONICAL_JSON_INVALID', `Value cannot be canonicalized: ${reason}`, { reason });
}

/** Receives canonical JSON text piece by piece (a joiner, or a hash sink). */
interface Sink {
  push(piece: string): void;
  /** Receives `JSON.stringify(text)`; a sink may write it without building it. */
  pushJsonString(text: string): void;
}

/** Collects the pieces of canonical JSON text to join. */
class PieceSink implements Sink {
  readonly pieces: string[] = [];

  push(piece: string): void {
    this.pieces.push(piece);
  }

  pushJsonString(text: string): void {
    this.pieces.push(JSON.stringify(text));
  }
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

/** An object's canonical member order (its keys; members with undefined values are skipped later). */
function orderOf(object: object): KeyOrder {
  const proto = Object.getPrototypeOf(object);
  if (proto !== Object.prototype && proto !== null) reject('non-plain object');
  return keyOrder(Object.keys(object));
}

/**
 * Walks with an explicit stack, so arbitrarily deep source JSON is canonicalized instead of
 * overflowing the call stack. The stack is four parallel arrays: the container, its key order (null
 * for an array), the next member, and whether an object member was written yet.
 */
function write(root: unknown, out: Sink): void {
  const containers: object[] = [];
  const orders: (KeyOrder | null)[] = [];
  const positions: number[] = [];
  const opened: boolean[] = [];
  const path = new Set<object>();
  let value = root;
  for (;;) {
    if (typeof value === 'string') out.pushJsonString(value);
    else if (typeof value !== 'object' || value === null) writeScalar(value, out);
    else {
      if (path.has(value)) reject('cycle');
      path.add(value);
      containers.push(value);
      positions.push(0);
      opened.push(false);
      if (Array.isArray(value)) {
        out.push('[');
        orders.push(null);
      } else orders.push(orderOf(value));
    }
    // Close finished containers until one has a next member, which becomes `value`.
    for (;;) {
      const depth = containers.length - 1;
      if (depth < 0) return;
      const container = containers[depth]!;
      const order = orders[depth]!;
      let i = positions[depth]!;
      if (order === null) {
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
        const record = container as Record<string, unknown>;
        const keys = order.sorted;
        let member: unknown;
        for (; i < keys.length; i++) {
          member = record[keys[i]!];
          if (member !== undefined) break;
        }
        if (i < keys.length) {
          positions[depth] = i + 1;
          out.push(opened[depth] ? order.next[i]! : order.first[i]!);
          opened[depth] = true;
          value = member;
          break;
        }
        out.push(opened[depth] ? '}' : '{}');
      }
      containers.pop();
      orders.pop();
      positions.pop();
      opened.pop();
      path.delete(container);
    }
  }
}

export function canonicalJson(value: unknown): string {
  if (value === undefined) reject('undefined');
  const out = new PieceSink();
  write(value, out);
  return out.pieces.join('');
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
