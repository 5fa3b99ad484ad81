/**
 * The CLI's output contract: success writes its JSON envelope (with `diagnostics`) or human text to
 * stdout; a fatal error writes `{ "error": { code, message, details } }` (with --json) or one line
 * to stderr, nothing to stdout, and exits with the error's category.
 */
import type { Diagnostic } from '../shared/diagnostic.js';
import { type EtlError, toEtlError } from '../shared/errors.js';
import { terminalSafeJson, visibleLines } from './visible-text.js';

export interface Output {
  json: boolean;
  success(envelope: Record<string, unknown>, human: string, diagnostics?: readonly Diagnostic[]): void;
  info(line: string): void;
  /**
   * Part of a success output written as it is produced (a streamed query result); false once the
   * reader closed stdout (`| head`), so the producer can stop.
   */
  stream(text: string): boolean;
}

let stdoutClosed = false;
let watchingStdout = false;

/** A write to a closed pipe fails asynchronously (EPIPE): it marks stdout closed instead of crashing. */
function watchStdout(): void {
  if (watchingStdout) return;
  watchingStdout = true;
  process.stdout.on('error', () => {
    stdoutClosed = true;
  });
}

function bigintSafe(_key: string, value: unknown): unknown {
  return typeof value === 'bigint'
    ? Number.isSafeInteger(Number(value))
      ? Number(value)
      : value.toString()
    : value;
}

export function stringifyJson(value: unknown, pretty = false): string {
  return terminalSafeJson(JSON.stringify(value, bigintSafe, pretty ? 2 : undefined));
}

export function createOutput(json: boolean): Output {
  return {
    json,
    success(envelope, human, diagnostics = []) {
      if (json) process.stdout.write(`${stringifyJson({ ...envelope, diagnostics })}\n`);
      else if (human.length > 0) {
        const text = visibleLines(human);
        process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
      }
    },
    info(line) {
      if (!json) process.stderr.write(`${visibleLines(line)}\n`);
    },
    stream(text) {
      watchStdout();
      if (!stdoutClosed && text.length > 0) process.stdout.write(json ? text : visibleLines(text));
      return !stdoutClosed;
    },
  };
}

export function reportFatal(error: unknown, json: boolean): number {
  const etlError: EtlError = toEtlError(error);
  if (json) {
    process.stderr.write(`${stringifyJson({ error: etlError.toJSON() })}\n`);
  } else {
    process.stderr.write(visibleLines(`etl: error ${etlError.code}: ${etlError.message}\n`));
    const remedy = etlError.details.remedy;
    if (typeof remedy === 'string') process.stderr.write(visibleLines(`  ${remedy}\n`));
  }
  // Stacks and original errors are internals: shown only to a maintainer who asks for them.
  if (process.env.CURSOR_ETL_DEBUG === '1') {
    for (let shown: unknown = error; shown instanceof Error; shown = shown.cause) {
      if (shown.stack) process.stderr.write(`${shown.stack}\n`);
    }
  }
  return etlError.exitCode;
}
