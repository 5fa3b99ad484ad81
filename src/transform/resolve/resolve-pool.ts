/**
 * A small pool of worker threads resolving hydrated sessions, so the main thread keeps reading
 * while merge, finalize and the view digest run on the other core. Replies are matched by request
 * id; a worker that dies fails every pending and later request with a typed InternalError.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ComposerGlobalBytes } from '../../extract/composer/composer-contribution.js';
import type { Contribution } from '../../extract/source-adapter.js';
import type { StoreDbBytesData } from '../../extract/store/store-contribution.js';
import { InternalError } from '../../shared/errors.js';
import { fromTransport } from './resolve-error-transport.js';
import type { Resolved } from './resolve-for-load.js';
import {
  portableOccurrence,
  type ResolveReply,
  type ResolveRequest,
  type ResolveSettings,
} from './resolve-job.js';

interface Pending {
  resolve: (resolved: Resolved) => void;
  reject: (error: Error) => void;
}

// Beside this module in the tsc output, and beside its chunk in the CLI bundle (build/bundle-cli.ts).
const WORKER_URL = new URL('./resolve-worker.js', import.meta.url);

/** One worker per core the main thread does not use, at least one. */
export function poolSize(): number {
  return Math.max(1, availableParallelism() - 1);
}

/**
 * The payload buffers a request may move instead of copy: each must own its whole ArrayBuffer (a
 * slice of a shared pool would detach its neighbours). Copies were allocated by the worker's thread
 * in its own malloc arena, which grew through a long run.
 */
function transferableBytes(contributions: readonly Contribution[]): ArrayBuffer[] {
  const owned = new Set<ArrayBuffer>();
  const add = (bytes: unknown): void => {
    if (!(bytes instanceof Uint8Array)) return;
    const buffer = bytes.buffer;
    const whole = bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength;
    if (buffer instanceof ArrayBuffer && whole && bytes.byteLength > 0) owned.add(buffer);
  };
  for (const contribution of contributions) {
    if (contribution.kind === 'store-db-bytes')
      for (const leaf of (contribution.data as StoreDbBytesData).leafBytes) add(leaf.bytes);
    if (contribution.kind !== 'composer-global-bytes') continue;
    const data = contribution.data as ComposerGlobalBytes;
    add(data.doc);
    for (const bubble of data.bubbles) add(bubble.bytes);
  }
  return [...owned];
}

export class ResolvePool {
  private readonly workers: Worker[];
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private failure: Error | null = null;
  private closing = false;

  constructor(size: number, settings: ResolveSettings, workerUrl: URL = WORKER_URL) {
    this.workers = Array.from({ length: size }, () => this.spawn(workerUrl, settings));
  }

  /**
   * Resolves one session on the next worker in turn; replies may arrive in any order. The global
   * rows' payload buffers move to the worker: the caller must not read `contributions` afterwards.
   */
  resolve(contributions: readonly Contribution[], scope: ResolveRequest['scope']): Promise<Resolved> {
    if (this.failure !== null) return Promise.reject(this.failure);
    const id = this.nextId++;
    const request: ResolveRequest = {
      id,
      contributions: contributions.map((c) => ({ ...c, occurrence: portableOccurrence(c.occurrence) })),
      scope: { omitted: scope.omitted.map(portableOccurrence), broadenedRefs: scope.broadenedRefs },
    };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      try {
        this.workers[id % this.workers.length]!.postMessage(request, transferableBytes(contributions));
      } catch (error) {
        this.pending.delete(id);
        throw error;
      }
    });
  }

  /** Terminates every worker; requests pending or made later are rejected. */
  async close(): Promise<void> {
    this.closing = true;
    this.failure ??= new InternalError('RESOLVE_POOL_CLOSED', 'The resolve pool was closed');
    this.rejectAll(this.failure);
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }

  private spawn(workerUrl: URL, settings: ResolveSettings): Worker {
    const worker = new Worker(workerUrl, {
      workerData: settings,
      resourceLimits: { maxYoungGenerationSizeMb: 16 },
    });
    worker.on('message', (reply: ResolveReply) => this.settle(reply));
    worker.on('error', (error) => this.fail(error.name));
    worker.on('messageerror', (error) => this.fail(error.name));
    worker.on('exit', (exitCode) => this.fail(`exit ${exitCode}`));
    return worker;
  }

  private settle(reply: ResolveReply): void {
    const pending = this.pending.get(reply.id);
    if (pending === undefined) return;
    this.pending.delete(reply.id);
    if (reply.ok) pending.resolve({ session: reply.session, counts: reply.counts });
    else pending.reject(fromTransport(reply.error));
  }

  private fail(cause: string): void {
    if (this.closing || this.failure !== null) return;
    this.failure = new InternalError('RESOLVE_WORKER_FAILED', 'A resolve worker stopped unexpectedly', {
      cause,
    });
    this.rejectAll(this.failure);
  }

  private rejectAll(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}
