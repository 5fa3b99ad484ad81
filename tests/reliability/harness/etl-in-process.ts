/**
 * Runs the CLI's `main` inside the test process with stdout/stderr captured: the same command
 * path as the binary, without a process spawn per case. Inputs that may block use `runEtl` instead.
 */
import { mkdirSync } from 'node:fs';
import { main } from '../../../src/cli/program.js';
import type { EtlResult } from './etl-process.js';

export async function runEtlInProcess(args: readonly string[], tmpDir: string): Promise<EtlResult> {
  mkdirSync(tmpDir, { recursive: true });
  const out: string[] = [];
  const err: string[] = [];
  const { stdout, stderr } = process;
  const writeOut = stdout.write;
  const writeErr = stderr.write;
  const previousTmp = process.env.TMPDIR;
  const capture =
    (sink: string[]) =>
    (chunk: string | Uint8Array): boolean => {
      sink.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    };
  stdout.write = capture(out) as typeof stdout.write;
  stderr.write = capture(err) as typeof stderr.write;
  process.env.TMPDIR = tmpDir;
  let code: number;
  try {
    code = await main(args, new AbortController().signal);
  } finally {
    stdout.write = writeOut;
    stderr.write = writeErr;
    if (previousTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmp;
  }
  return { code, signal: null, stdout: out.join(''), stderr: err.join(''), timedOut: false };
}
