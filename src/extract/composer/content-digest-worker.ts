/**
 * The worker thread of `early-content-digests.ts`: it boots while the main thread opens the source,
 * then runs one `ownedContentDigests` pass over descriptors the main thread holds (a worker shares
 * the process's descriptors and never closes them), posts the answer and sets the shared flag.
 */
import { type MessagePort, workerData } from 'node:worker_threads';
import { type OwnedDigestJob, ownedContentDigests } from './owned-content-digests.js';

const { port, done } = workerData as { port: MessagePort; done: Int32Array };
port.once('message', (job: OwnedDigestJob) => {
  try {
    port.postMessage({ digests: ownedContentDigests(job) });
  } catch (error) {
    port.postMessage({ failed: error instanceof Error ? error.name : 'unknown' });
  } finally {
    Atomics.store(done, 0, 1);
    Atomics.notify(done, 0);
    port.close();
  }
});
