/**
 * A `node --import` preload: `CURSOR_ETL_FAULT_AFTER=<point>:<n>` kills the process with SIGKILL (or
 * `CURSOR_ETL_FAULT_SIGNAL`) the n-th time (1-based) the CLI reaches the named fault point
 * (`src/shared/fault-injection.ts`).
 */
import { subscribe } from 'node:diagnostics_channel';
import { FAULT_POINT_CHANNEL } from '../../src/shared/fault-injection.js';

const match = /^([a-z-]+):([1-9]\d*)$/.exec(process.env.CURSOR_ETL_FAULT_AFTER ?? '');
const signal = process.env.CURSOR_ETL_FAULT_SIGNAL === 'SIGINT' ? 'SIGINT' : 'SIGKILL';
if (match) {
  const [, point, after] = match;
  let hits = 0;
  subscribe(FAULT_POINT_CHANNEL, (reached) => {
    if (reached === point && ++hits === Number(after)) process.kill(process.pid, signal);
  });
}
