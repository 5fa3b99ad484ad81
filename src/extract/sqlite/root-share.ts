/**
 * How two threads split one table walk: the root page's children, claimed through one shared cell.
 * One thread claims them one at a time from the front; the other takes the back half of what is
 * left, walks it, and takes half again. Each claimed range is walked in rowid order.
 */

/** The children of the root page a walk takes, in the order it takes them. */
export interface RootShare {
  /** The next child index (of `children`), or null when none is left. */
  next(children: number): number | null;
}

const UNSET = -1;

/** The cell both threads claim through: (end << 16) | front, UNSET until a walk reads the root. */
export function shareCell(): Int32Array {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  cell[0] = UNSET;
  return cell;
}

/** A root page holds at most 65536 / 6 children, so both halves fit 16 bits. */
const pack = (front: number, end: number): number => (end << 16) | front;

/** The cell's value, set to every child unclaimed when no walk has read the root yet. */
function current(cell: Int32Array, children: number): number {
  const value = Atomics.load(cell, 0);
  if (value !== UNSET) return value;
  if (children > 0xffff) throw new RangeError('root children');
  const all = pack(0, children);
  const before = Atomics.compareExchange(cell, 0, UNSET, all);
  return before === UNSET ? all : before;
}

/** Claims children one at a time from the front. */
export function frontClaims(cell: Int32Array): RootShare {
  return {
    next(children) {
      for (;;) {
        const value = current(cell, children);
        const front = value & 0xffff;
        const end = value >>> 16;
        if (front >= end) return null;
        if (Atomics.compareExchange(cell, 0, value, pack(front + 1, end)) === value) return front;
      }
    },
  };
}

/**
 * Takes the back half of the unclaimed children, and again once it is walked. `range` counts the
 * halves taken: rows of two halves are not in rowid order with each other.
 */
export class BackHalves implements RootShare {
  range = 0;
  private at = 0;
  private end = 0;

  constructor(private readonly cell: Int32Array) {}

  next(children: number): number | null {
    if (this.at < this.end) return this.at++;
    for (;;) {
      const value = current(this.cell, children);
      const front = value & 0xffff;
      const end = value >>> 16;
      if (front >= end) return null;
      const middle = front + ((end - front) >> 1);
      if (Atomics.compareExchange(this.cell, 0, value, pack(front, middle)) !== value) continue;
      this.range++;
      this.at = middle + 1;
      this.end = end;
      return middle;
    }
  }
}
