/**
 * The content pass of a changed global DB on a worker thread, spawned before the DB is opened and
 * handed its job as the catalog begins, so the pass runs beside the catalog instead of after it.
 * `take` blocks until the answer is in: the fingerprint queries that ask for content are synchronous.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { prefixUpperBound } from '../sqlite/keyset-pager.js';
import { shareCell } from '../sqlite/root-share.js';
import { rawFileOf } from '../sqlite/sqlite-snapshot.js';
import { CODE_BLOCK_DIFF_PREFIX, COMPOSER_DATA_PREFIX } from './bubble-key-owners.js';
import { rawShape } from './global-content-digests.js';
import type { OwnedDigestJob, OwnedDigests } from './owned-content-digests.js';

// Beside this module in the tsc output and beside its chunk in the CLI bundle (build/bundle-cli.ts).
// Run from TypeScript sources (tests, after `npm run build`), the built one: Node cannot start TS.
const WORKER_URL = import.meta.url.endsWith('.ts')
  ? new URL('../../../dist/src/extract/composer/content-digest-worker.js', import.meta.url)
  : new URL('./content-digest-worker.js', import.meta.url);

/** How long `take` waits at most (50 ms per MB past 10 s); then SQLite reads. */
const waitMs = (shape: { pageSize: number; pageCount: number }): number =>
  10_000 + (shape.pageSize * shape.pageCount) / 20_000;

/**
 * A walk that reads nothing for this long has died (a worker that dies hard cannot say so: its exit
 * event waits for the event loop `take` blocks). Reads come every 128 KiB, boot within a second.
 */
const STALL_MS = 5_000;
const SLICE_MS = 250;

/** Rowids of the TEXT keys starting with `prefix`, ascending, from the key index. */
function rowidsOf(db: Database.Database, prefix: string): number[] {
  const rowids = db
    .prepare(
      'SELECT rowid FROM cursorDiskKV WHERE key >= ? AND key < ? AND substr(CAST(key AS BLOB), 1, ?) = CAST(? AS BLOB)',
    )
    .pluck()
    .all(prefix, prefixUpperBound(prefix), Buffer.byteLength(prefix), prefix) as number[];
  return rowids.sort((a, b) => a - b);
}

/** The pass's job on `db`'s snapshot; undefined unless its file's bytes are the snapshot (UTF-8). */
export function digestJobOf(
  db: Database.Database,
  colonIds: ReadonlySet<string>,
): OwnedDigestJob | undefined {
  const utf8 = String(db.pragma('encoding', { simple: true })).toUpperCase() === 'UTF-8';
  const source = utf8 ? rawFileOf(db) : undefined;
  const shape = source === undefined ? undefined : rawShape(db);
  if (source === undefined || shape === undefined) return undefined;
  return {
    source,
    shape,
    colonIds: [...colonIds],
    docRowids: rowidsOf(db, COMPOSER_DATA_PREFIX),
    diffRowids: rowidsOf(db, CODE_BLOCK_DIFF_PREFIX),
  };
}

export class EarlyContentDigests {
  private answer: OwnedDigests | null | undefined;
  private timeoutMs = 0;
  /** The job handed to the worker, its `share` cell set: `take`'s helper walks part of it. */
  private job: OwnedDigestJob | undefined;

  /** The walk's read count (`RawSource.progress`). */
  private readonly progress = new Int32Array(new SharedArrayBuffer(4));

  private constructor(
    private readonly worker: Worker,
    private readonly port: MessagePort,
    private readonly done: Int32Array,
    private readonly stallMs: number,
  ) {}

  /** A worker booting and waiting for its job; undefined when none can start. */
  static spawn(workerUrl: URL = WORKER_URL, stallMs = STALL_MS): EarlyContentDigests | undefined {
    if (!existsSync(fileURLToPath(workerUrl))) return undefined;
    const { port1, port2 } = new MessageChannel();
    const done = new Int32Array(new SharedArrayBuffer(4));
    try {
      const worker = new Worker(workerUrl, { workerData: { port: port2, done }, transferList: [port2] });
      // A pass nobody takes (the plan found every session moved) must not hold the process open.
      worker.unref();
      // A worker that dies first (its module unloadable) marks the flag, so `take` need not wait it out.
      const dead = (): void => void Atomics.compareExchange(done, 0, 0, 2);
      worker.on('error', dead);
      worker.on('exit', dead);
      return new EarlyContentDigests(worker, port1, done, stallMs);
    } catch {
      port1.close();
      return undefined;
    }
  }

  /** Hands the worker `db`'s snapshot; false (and the worker stopped) where its bytes are not it. */
  begin(db: Database.Database, colonIds: ReadonlySet<string>): boolean {
    const job = digestJobOf(db, colonIds);
    if (job === undefined) {
      this.cancel();
      return false;
    }
    this.timeoutMs = waitMs(job.shape);
    this.job = { ...job, share: shareCell() };
    this.port.postMessage({ ...this.job, source: { ...job.source, progress: this.progress } });
    return true;
  }

  /** Stops a worker that was never handed a job. */
  cancel(): void {
    if (this.job === undefined) this.stop();
  }

  /** The plan is final: a worker whose answer was never taken is stopped, and `take` answers null. */
  release(): void {
    if (this.answer !== undefined) return;
    this.answer = null;
    this.stop();
  }

  private stop(): void {
    this.port.close();
    void this.worker.terminate();
  }

  /** Waits for the worker's flag: false once its walk reads nothing for `stallMs`, or after `timeoutMs`. */
  private settled(): boolean {
    const cap = performance.now() + this.timeoutMs;
    let reads = Atomics.load(this.progress, 0);
    let moved = performance.now();
    for (;;) {
      const left = cap - performance.now();
      if (left <= 0) return false;
      if (Atomics.wait(this.done, 0, 0, Math.min(SLICE_MS, left)) !== 'timed-out') return true;
      const now = Atomics.load(this.progress, 0);
      if (now !== reads) {
        reads = now;
        moved = performance.now();
      } else if (performance.now() - moved >= this.stallMs) return false;
    }
  }

  /**
   * The pass's digests, or null when it failed (the caller reads through SQLite instead). `help`,
   * run once before the wait, walks on this thread what the worker has not reached yet.
   */
  take(help?: (job: OwnedDigestJob) => void): OwnedDigests | null {
    if (this.answer !== undefined) return this.answer;
    if (this.job !== undefined) help?.(this.job);
    const message =
      this.job !== undefined && this.settled() ? receiveMessageOnPort(this.port)?.message : undefined;
    this.answer = (message as { digests?: OwnedDigests } | undefined)?.digests ?? null;
    this.port.close();
    if (this.answer === null) void this.worker.terminate();
    return this.answer;
  }
}
