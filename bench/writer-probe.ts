/**
 * `node dist/bench/writer-probe.js DB OUT`: stands in for Cursor writing its global DB while a run
 * reads it. Every 10 ms one small write transaction (busy timeout 60 s); on SIGTERM it writes the
 * longest and total time its commits waited, and their count, to OUT as JSON.
 */
import { writeFileSync } from 'node:fs';
import { Database } from '../src/extract/sqlite/sqlite-driver.js';

const [path, out] = process.argv.slice(2);
if (path === undefined || out === undefined) throw new Error('usage: writer-probe DB OUT');
const db = new Database(path);
db.pragma('busy_timeout = 60000');
const write = db.prepare(
  "INSERT OR REPLACE INTO ItemTable (key, value) VALUES ('cursor-etl.bench.writerProbe', ?)",
);
let writes = 0;
let maxMs = 0;
let totalMs = 0;
let timer: NodeJS.Timeout;
const tick = (): void => {
  const started = performance.now();
  db.exec('BEGIN IMMEDIATE');
  write.run(String(writes));
  db.exec('COMMIT');
  const waited = performance.now() - started;
  writes++;
  maxMs = Math.max(maxMs, waited);
  totalMs += waited;
  timer = setTimeout(tick, 10);
};
process.on('SIGTERM', () => {
  clearTimeout(timer);
  db.close();
  writeFileSync(out, JSON.stringify({ writes, maxMs, totalMs }));
  process.exit(0);
});
tick();
