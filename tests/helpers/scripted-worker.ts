import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tempDir } from './run-cli.js';

/**
 * A content-pass worker script at `name` that runs `onJob` with `job`, `port` and `done` in scope,
 * as the real one has; `prelude` goes before it (imports of built modules, by file URL).
 */
export function scriptedWorker(name: string, onJob: string, prelude = ''): URL {
  const path = join(tempDir('etl-early-scripted-'), `${name}.mjs`);
  writeFileSync(
    path,
    `import { workerData } from 'node:worker_threads';
${prelude}
const { port, done } = workerData;
port.once('message', (job) => { ${onJob} });
`,
  );
  return pathToFileURL(path);
}
