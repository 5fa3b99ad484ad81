/** An `etl run` child held at one fault point, so a test can act while it holds the warehouse. */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLI } from '../../helpers/run-cli.js';
import { FAULT_POINTS } from './crash-scenario.js';
import type { EtlResult } from './etl-process.js';

/** Where the run is held: the fault point's number, label and (at a SQLite read) its SQL. */
export interface HeldPoint {
  point: number;
  label: string;
  sql: string | null;
}

export interface PausedRun {
  child: ChildProcess;
  /** The point the run is held at, or null when it ended without reaching it. */
  held: HeldPoint | null;
  /** Lets the run continue from its fault point. */
  resume(): void;
  /** Resolves when the child exits (SIGKILLed after `deadlineMs`, so a hang fails the test). */
  done: Promise<EtlResult>;
}

/** The held point once `<control>.paused` is complete (a half-written JSON object never parses). */
function heldPoint(control: string): HeldPoint | null {
  try {
    return JSON.parse(readFileSync(`${control}.paused`, 'utf8')) as HeldPoint;
  } catch {
    return null;
  }
}

/** Holds the run at its `pauseAt`-th fault point, or at the first SQLite read whose SQL matches. */
export async function startPausedRun(
  args: readonly string[],
  pauseAt: number | RegExp,
  control: string,
  tmpDir: string,
  env: Record<string, string> = {},
  deadlineMs = 240_000,
): Promise<PausedRun> {
  mkdirSync(tmpDir, { recursive: true });
  const child = spawn(process.execPath, ['--import', FAULT_POINTS, CLI, ...args], {
    env: {
      ...process.env,
      ...env,
      TMPDIR: tmpDir,
      ...(typeof pauseAt === 'number'
        ? { ETL_FAULT_AT: String(pauseAt) }
        : { ETL_FAULT_AT_SQL: pauseAt.source }),
      ETL_FAULT_PAUSE: control,
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  let timedOut = false;
  const killer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, deadlineMs);
  const done = new Promise<EtlResult>((resolve) => {
    child.on('exit', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
  });
  // Waiting for the child to reach its point is a wait, not a timed assertion; the deadline bounds it.
  let held = heldPoint(control);
  while (held === null && child.exitCode === null && !timedOut) {
    await sleep(20);
    held = heldPoint(control);
  }
  return { child, held, resume: () => writeFileSync(control, 'go'), done };
}
