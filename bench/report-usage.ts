/**
 * Preloaded into a measured child (`node --import`): at exit it writes the process's own resource
 * usage (CPU time, peak RSS) to the file named by BENCH_USAGE_OUT, leaving stdout untouched.
 */
import { writeFileSync } from 'node:fs';

const out = process.env.BENCH_USAGE_OUT;
if (out) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(
      out,
      JSON.stringify({ cpuMicros: usage.userCPUTime + usage.systemCPUTime, maxRssKb: usage.maxRSS }),
    );
  });
}
