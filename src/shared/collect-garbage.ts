/**
 * Runs one full V8 collection. After a load the heap holds tens of MB of dead rows that no
 * allocation will collect soon (the rest of the run is native DuckDB work), so they would stay
 * resident through the final checkpoint or Parquet build, where a run's RSS peaks.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export function collectGarbage(): void {
  // `--expose-gc` set at run time only reaches contexts created afterwards.
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
