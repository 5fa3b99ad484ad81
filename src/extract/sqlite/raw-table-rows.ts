/**
 * The rows of one rowid table read from the database file's bytes, in rowid order, without SQLite:
 * its B-tree walked from the root page, overflow chains followed. Only for a caller whose snapshot
 * the file shows as it is; any shape not expected throws `RawTableError`, and the caller asks SQLite.
 */
import { fstatSync, readSync } from 'node:fs';
import type { RootShare } from './root-share.js';

/** The file does not read as this reader expects: ask SQLite instead. */
export class RawTableError extends Error {}

/** The database file, and the WAL frames that stand for some of its pages in the snapshot. */
export interface RawSource {
  fd: number;
  wal?: { fd: number; frames: ReadonlyMap<number, number> };
  /** Bumped at every read, so another thread can tell a walk that goes on from one that died. */
  progress?: Int32Array;
}

export interface RawTableShape {
  pageSize: number;
  /** Pages of the snapshot (`PRAGMA page_count`). */
  pageCount: number;
  rootPage: number;
  /** Record columns (by `cid`) of the key and of the value. */
  keyColumn: number;
  valueColumn: number;
}

// Both windows fit a core's L2 cache: the kernel copies into cache-resident pages several times
// faster than into a larger buffer, and the walk reads each page right after its copy.
const WINDOW_BYTES = 1 << 17;
const MAGIC = Buffer.from('SQLite format 3\u0000', 'latin1');
const LEAF = 0x0d;
const INTERIOR = 0x05;

/**
 * Pages read a window at a time, two windows kept: leaves and their overflow pages mostly lie in
 * file order, so one read serves both. A page is valid until the next `page` call.
 */
class PageWindows {
  private readonly first = [0, 0];
  private readonly count = [0, 0];
  private readonly buffers: Buffer[];
  private readonly span: number;
  private readonly filePages: number;
  private readonly walPage: Buffer;
  private recent = 0;

  constructor(
    private readonly source: RawSource,
    private readonly pageSize: number,
    private readonly pageCount: number,
    windowBytes: number,
  ) {
    this.span = Math.max(1, Math.floor(windowBytes / pageSize));
    this.buffers = [Buffer.allocUnsafe(this.span * pageSize), Buffer.allocUnsafe(this.span * pageSize)];
    this.filePages = Math.floor(fstatSync(source.fd).size / pageSize);
    this.walPage = Buffer.allocUnsafe(source.wal === undefined ? 0 : pageSize);
  }

  page(n: number): Buffer {
    if (!Number.isSafeInteger(n) || n < 1 || n > this.pageCount) throw new RawTableError('page number');
    const frame = this.source.wal?.frames.get(n);
    if (frame !== undefined) {
      this.beat();
      if (readSync(this.source.wal!.fd, this.walPage, 0, this.pageSize, frame) !== this.pageSize)
        throw new RawTableError('short WAL read');
      return this.walPage;
    }
    if (n > this.filePages) throw new RawTableError('page past the file');
    let w = this.recent;
    if (!this.holds(w, n)) {
      w = 1 - w;
      if (!this.holds(w, n)) {
        // Aligned windows never overlap: a page just before the last window does not read it again.
        const first = Math.floor((n - 1) / this.span) * this.span + 1;
        const count = Math.min(this.span, this.filePages - first + 1);
        const bytes = count * this.pageSize;
        this.beat();
        if (readSync(this.source.fd, this.buffers[w]!, 0, bytes, (first - 1) * this.pageSize) !== bytes)
          throw new RawTableError('short read');
        this.first[w] = first;
        this.count[w] = count;
      }
    }
    this.recent = w;
    const at = (n - this.first[w]!) * this.pageSize;
    return this.buffers[w]!.subarray(at, at + this.pageSize);
  }

  private beat(): void {
    if (this.source.progress !== undefined) Atomics.add(this.source.progress, 0, 1);
  }

  private holds(w: number, n: number): boolean {
    return n >= this.first[w]! && n < this.first[w]! + this.count[w]!;
  }
}

/** Where the last `varint` ended: one module slot rather than a tuple per call. */
let varintEnd = 0;

/** The varint at `at` (its end in `varintEnd`). Past 2^53 it is not a rowid or size this reader trusts. */
function varint(b: Uint8Array, at: number, end: number): number {
  let value = 0;
  for (let i = 0; i < 9; i++) {
    if (at + i >= end) throw new RawTableError('varint');
    const byte = b[at + i]!;
    if (i === 8) return checked(value * 256 + byte, at + 9);
    value = value * 128 + (byte & 0x7f);
    if (byte < 0x80) return checked(value, at + i + 1);
  }
  throw new RawTableError('varint');
}

function checked(value: number, end: number): number {
  if (!Number.isSafeInteger(value)) throw new RawTableError('varint range');
  varintEnd = end;
  return value;
}

const SERIAL_BYTES = [0, 1, 2, 3, 4, 6, 8, 8, 0, 0, -1, -1];

/** Body bytes of a serial type; -1 for the reserved types. */
const serialBytes = (type: number): number => (type >= 12 ? (type - 12) >> 1 : SERIAL_BYTES[type]!);

/** Type, body start and length of the key (slots 0–2) and of the value (3–5), reused per record. */
const KEY = 0;
const VALUE = 3;

/** Fills `out` from a record at `base`; false when its header lies past `available` bytes. */
function fields(
  p: Uint8Array,
  base: number,
  available: number,
  shape: RawTableShape,
  out: number[],
): boolean {
  const headerBytes = varint(p, base, base + available);
  if (headerBytes > available) return false;
  const wanted = Math.max(shape.keyColumn, shape.valueColumn);
  let at = varintEnd;
  let body = headerBytes;
  let column = 0;
  for (; at < base + headerBytes && column <= wanted; column++) {
    const type = varint(p, at, base + headerBytes);
    at = varintEnd;
    const length = serialBytes(type);
    if (length < 0) throw new RawTableError('serial type');
    const slot = column === shape.keyColumn ? KEY : column === shape.valueColumn ? VALUE : -1;
    if (slot >= 0) {
      out[slot] = type;
      out[slot + 1] = body;
      out[slot + 2] = length;
    }
    body += length;
  }
  // A record shorter than the table (a column added later) holds the column's default: SQLite decides.
  if (column <= wanted) throw new RawTableError('short record');
  return true;
}

/** Calls for one row: its rowid, value (null for NULL), key bytes and whether the key is TEXT. */
export type RawRow = (rowid: number, value: Uint8Array | null, key: Uint8Array, textKey: boolean) => void;

/**
 * Calls `row` for every row whose key, as bytes, starts with `keyPrefix`, in rowid order; with
 * `only` (ascending rowids), for those alone; with `share`, under the root's children it claims.
 * Bytes are valid only during the call. A value neither text, blob nor NULL throws.
 */
export function forEachRawRow(
  source: RawSource,
  shape: RawTableShape,
  keyPrefix: Uint8Array,
  row: RawRow,
  only?: readonly number[],
  share?: RootShare,
): void {
  const { pageSize, pageCount } = shape;
  // A sparse walk reads page by page: a window per wanted row would read most of the file.
  const pages = new PageWindows(source, pageSize, pageCount, only === undefined ? WINDOW_BYTES : pageSize);
  /** Whether `only` holds a rowid in (`low`, `high`]. */
  const wants = (low: number, high: number): boolean => {
    if (only === undefined) return true;
    let [from, to] = [0, only.length];
    while (from < to) {
      const mid = (from + to) >> 1;
      if (only[mid]! <= low) from = mid + 1;
      else to = mid;
    }
    return from < only.length && only[from]! <= high;
  };
  const header = pages.page(1);
  const pageSizeField = header.readUInt16BE(16);
  if (!header.subarray(0, 16).equals(MAGIC) || (pageSizeField === 1 ? 65536 : pageSizeField) !== pageSize)
    throw new RawTableError('header');
  const reserved = header[20]!;
  const usable = pageSize - reserved;
  if (usable < 480) throw new RawTableError('usable size');
  const maxLocal = usable - 35;
  const minLocal = Math.floor(((usable - 12) * 32) / 255) - 23;
  const leaf = Buffer.allocUnsafe(pageSize);
  let scratch = Buffer.allocUnsafe(0);
  const f = [0, 0, 0, 0, 0, 0];
  let lastRowid = -1;
  let visited = 0;

  /** The whole payload of a cell, `local` bytes here and the rest in the chain from `next`, in `scratch`. */
  const assemble = (page: Uint8Array, start: number, local: number, size: number, next: number): Buffer => {
    if (scratch.length < size) scratch = Buffer.allocUnsafe(Math.max(size, 2 * scratch.length));
    scratch.set(page.subarray(start, start + local), 0);
    let filled = local;
    while (filled < size) {
      if (++visited > pageCount) throw new RawTableError('overflow cycle');
      const o = pages.page(next);
      const take = Math.min(usable - 4, size - filled);
      o.copy(scratch, filled, 4, 4 + take);
      filled += take;
      next = o.readUInt32BE(0);
    }
    return scratch;
  };

  const match = (p: Uint8Array, base: number): boolean => {
    if (f[KEY]! < 12 || f[KEY + 2]! < keyPrefix.length) return false;
    const at = base + f[KEY + 1]!;
    for (let i = 0; i < keyPrefix.length; i++) if (p[at + i] !== keyPrefix[i]) return false;
    return true;
  };

  const cell = (page: Buffer, at: number): void => {
    const size = varint(page, at, usable);
    const rowid = varint(page, varintEnd, usable);
    const start = varintEnd;
    if (rowid <= lastRowid) throw new RawTableError('rowid order');
    lastRowid = rowid;
    if (!wants(rowid - 1, rowid)) return;
    let local = size;
    if (size > maxLocal) {
      const k = minLocal + ((size - minLocal) % (usable - 4));
      local = k <= maxLocal ? k : minLocal;
    }
    if (start + local + (local < size ? 4 : 0) > usable) throw new RawTableError('cell bounds');
    let p: Uint8Array = page;
    let base = start;
    let whole = fields(page, start, local, shape, f);
    if (whole) {
      // Decided from this page alone when the key's first bytes are on it.
      const decidable =
        f[KEY]! < 12 || f[KEY + 2]! < keyPrefix.length || f[KEY + 1]! + keyPrefix.length <= local;
      if (decidable && !match(page, start)) return;
      if (!decidable || (local < size && f[VALUE + 1]! + f[VALUE + 2]! > local)) whole = false;
    }
    if (!whole) {
      p = assemble(page, start, local, size, page.readUInt32BE(start + local));
      base = 0;
      if (!fields(p, 0, size, shape, f)) throw new RawTableError('record header');
    }
    const valueEnd = f[VALUE + 1]! + f[VALUE + 2]!;
    if (valueEnd > size || f[KEY + 1]! + f[KEY + 2]! > size) throw new RawTableError('record');
    if (!match(p, base)) return;
    const type = f[VALUE]!;
    const keyAt = base + f[KEY + 1]!;
    const key = p.subarray(keyAt, keyAt + f[KEY + 2]!);
    const text = (f[KEY]! & 1) === 1;
    if (type === 0) row(rowid, null, key, text);
    else if (type >= 12) row(rowid, p.subarray(base + f[VALUE + 1]!, base + valueEnd), key, text);
    else throw new RawTableError('value type');
  };

  const walk = (n: number): void => {
    if (++visited > pageCount) throw new RawTableError('page cycle');
    let page = pages.page(n);
    const h = n === 1 ? 100 : 0;
    const type = page[h];
    const cells = page.readUInt16BE(h + 3);
    if (type === LEAF) {
      // Copied: reading its cells' overflow pages may reuse the window it lies in.
      page.copy(leaf);
      page = leaf;
      for (let i = 0; i < cells; i++) cell(page, page.readUInt16BE(h + 8 + 2 * i));
      return;
    }
    if (type !== INTERIOR) throw new RawTableError('page type');
    // Its window may be reused while its children are read: their page numbers are taken first.
    // A cell's key is the highest rowid under its child, so a child holds the rowids above the last.
    const children: number[] = [];
    let low = lastRowid;
    for (let i = 0; i < cells; i++) {
      const at = page.readUInt16BE(h + 12 + 2 * i);
      const high = only === undefined ? low : varint(page, at + 4, pageSize);
      if (wants(Math.min(low, high), high)) children.push(page.readUInt32BE(at));
      low = high;
    }
    if (wants(low, Number.POSITIVE_INFINITY)) children.push(page.readUInt32BE(h + 8));
    for (const child of children) walk(child);
  };

  /** The root's children that `share` claims; a leaf root is its one child. */
  const walkShared = (claims: RootShare): void => {
    const n = shape.rootPage;
    const h = n === 1 ? 100 : 0;
    const root = pages.page(n);
    if (root[h] !== INTERIOR) {
      if (claims.next(1) === 0) walk(n);
      return;
    }
    ++visited;
    const cells = root.readUInt16BE(h + 3);
    const children: number[] = [];
    // The rowid each child's rows lie above: the key of the cell before it.
    const lows: number[] = [];
    let low = -1;
    for (let i = 0; i < cells; i++) {
      const at = root.readUInt16BE(h + 12 + 2 * i);
      children.push(root.readUInt32BE(at));
      lows.push(low);
      low = varint(root, at + 4, pageSize);
    }
    children.push(root.readUInt32BE(h + 8));
    lows.push(low);
    for (let i = claims.next(children.length); i !== null; i = claims.next(children.length)) {
      lastRowid = lows[i]!;
      walk(children[i]!);
    }
  };
  try {
    if (share === undefined) walk(shape.rootPage);
    else walkShared(share);
  } catch (error) {
    // A cell pointer or count past its page reads out of the buffer: a page not as expected.
    if (error instanceof RangeError) throw new RawTableError('page bounds');
    throw error;
  }
}
