#!/usr/bin/env node
/** Process entry: SIGINT/SIGTERM stop the run at a safe point; temp data is cleaned on every path. */
import { disposeAllTempDirs } from '../shared/temp/private-temp-dir.js';
import { main } from './program.js';

const controller = new AbortController();
let signalled = 0;
const onSignal = (name: NodeJS.Signals): void => {
  signalled++;
  if (signalled > 1) {
    disposeAllTempDirs();
    process.exit(name === 'SIGINT' ? 130 : 143);
  }
  controller.abort(name);
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

const code = await main(process.argv.slice(2), controller.signal);
disposeAllTempDirs();
process.exitCode = code;
