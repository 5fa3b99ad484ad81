/**
 * Runs one benchmark case as a whole Node process and measures it: wall time here, CPU time and
 * peak RSS reported by the child itself through the usage reporter, preloaded with NODE_OPTIONS so
 * the process can be started by a launcher (`bin/etl`) exactly as users start it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Sample {
  exitCode: number;
  wallMs: number;
  cpuMs: number;
  maxRssBytes: number;
  /** Payload bytes the run read, from its `--json` summary (`run.payloadBytesRead`). */
  payloadBytes: number | null;
  stdout: string;
  stderr: string;
}

const REPORTER = fileURLToPath(new URL('./report-usage.js', import.meta.url));

function payloadBytesOf(stdout: string): number | null {
  try {
    const parsed = JSON.parse(stdout) as { run?: { payloadBytesRead?: unknown } };
    const bytes = parsed.run?.payloadBytesRead;
    return typeof bytes === 'number' ? bytes : null;
  } catch {
    return null;
  }
}

/** `command` is the launcher or `node` itself; `nodeFlags` go to the Node process it starts. */
export function measureProcess(
  command: string,
  args: readonly string[],
  nodeFlags: readonly string[] = [],
): Sample {
  const dir = mkdtempSync(join(tmpdir(), 'etl-bench-usage-'));
  const usageFile = join(dir, 'usage.json');
  try {
    const started = performance.now();
    const nodeOptions = [process.env.NODE_OPTIONS ?? '', `--import="${REPORTER}"`, ...nodeFlags];
    const child = spawnSync(command, args, {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: nodeOptions.join(' ').trim(), BENCH_USAGE_OUT: usageFile },
      maxBuffer: 256 * 1024 * 1024,
    });
    const wallMs = performance.now() - started;
    const usage = JSON.parse(readFileSync(usageFile, 'utf8')) as { cpuMicros: number; maxRssKb: number };
    return {
      exitCode: child.status ?? -1,
      wallMs,
      cpuMs: usage.cpuMicros / 1000,
      maxRssBytes: usage.maxRssKb * 1024,
      payloadBytes: payloadBytesOf(child.stdout),
      stdout: child.stdout,
      stderr: child.stderr,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
