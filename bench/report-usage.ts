/**
 * Preloaded into a measured child (`--import` in NODE_OPTIONS): at exit it writes the process's own
 * resource usage (CPU time, peak RSS) to the file named by BENCH_USAGE_OUT, leaving stdout untouched.
 * Worker threads load preloads too; only the main thread, which exits last, reports.
 */
import { writeFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const out = process.env.BENCH_USAGE_OUT;
if (out && isMainThread) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(
      out,
      JSON.stringify({ cpuMicros: usage.userCPUTime + usage.systemCPUTime, maxRssKb: usage.maxRSS }),
    );
  });
}
