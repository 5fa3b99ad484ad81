/**
 * Worker-thread entry of the resolve pool: resolves (and redacts) the sessions the main thread
 * hydrated, one request at a time, so merge, finalize and the view digest run off the main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { toTransport } from './resolve-error-transport.js';
import { resolveForLoad } from './resolve-for-load.js';
import type { ResolveReply, ResolveRequest, ResolveSettings } from './resolve-job.js';

const settings = workerData as ResolveSettings;

parentPort!.on('message', async ({ id, contributions, scope }: ResolveRequest) => {
  let reply: ResolveReply;
  try {
    reply = { id, ok: true, ...(await resolveForLoad(contributions, scope, settings)) };
  } catch (error) {
    reply = { id, ok: false, error: toTransport(error) };
  }
  parentPort!.postMessage(reply);
});
