/**
 * The few error classes of cursor-etl. Each carries a stable `code`, safe `details` (never message
 * content or physical paths) and the contract's exit category; retryability is decided by class.
 */

import type { DetailsArgs, ReadableDetails } from './diagnostic.js';
import type { Code } from './diagnostic-catalogue.js';

export type ExitCategory = 0 | 1 | 2 | 3 | 4 | 5;

export const EXIT = {
  ok: 0,
  general: 1,
  usage: 2,
  notFound: 3,
  io: 4,
  integrity: 5,
} as const satisfies Record<string, ExitCategory>;

export abstract class EtlError<C extends Code = Code> extends Error {
  abstract readonly exitCode: ExitCategory;
  readonly retryable: boolean = false;
  readonly code: C;
  readonly details: ReadableDetails<C>;

  /** `options.cause` keeps the original error for CURSOR_ETL_DEBUG; it is never part of the output. */
  constructor(code: C, message: string, ...[details, options]: DetailsArgs<C, [options: ErrorOptions]>) {
    super(message, options);
    this.code = code;
    this.details = (details ?? {}) as ReadableDetails<C>;
    this.name = new.target.name;
  }

  toJSON(): { code: C; message: string; details: ReadableDetails<C> } {
    return { code: this.code, message: this.message, details: this.details };
  }
}

/** Bad flags, bad config, invalid limit overrides: fixed by the caller, never retried. */
export class UsageError<C extends Code = Code> extends EtlError<C> {
  readonly exitCode = EXIT.usage;
}

/** A named source, session or warehouse does not exist. */
export class NotFoundError<C extends Code = Code> extends EtlError<C> {
  readonly exitCode = EXIT.notFound;
}

/** A source or target could not be read or written safely (limits, encoding, disk). */
export class IoError<C extends Code = Code> extends EtlError<C> {
  readonly exitCode = EXIT.io;
}

/** Contention that clears by itself (a lock held by another run or an analyst's GUI). */
export class RetryableIoError<C extends Code = Code> extends EtlError<C> {
  readonly exitCode = EXIT.io;
  override readonly retryable = true;
}

/** The warehouse or a source contradicts itself or is newer than this build: fail closed. */
export class IntegrityError<C extends Code = Code> extends EtlError<C> {
  readonly exitCode = EXIT.integrity;
}

/** Anything unexpected: a bug, reported without internals. */
export class InternalError<C extends Code = Code> extends EtlError<C> {
  readonly exitCode = EXIT.general;
}

/** An EtlError as is; anything else becomes INTERNAL_ERROR, the original kept as its `cause`. */
export function toEtlError(error: unknown): EtlError {
  if (error instanceof EtlError) return error;
  const name = error instanceof Error ? error.name : typeof error;
  return new InternalError(
    'INTERNAL_ERROR',
    'Unexpected internal error',
    { errorName: name },
    { cause: error },
  );
}
