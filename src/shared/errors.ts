/**
 * The few error classes of cursor-etl. Each carries a stable `code`, safe `details` (never message
 * content or physical paths) and the contract's exit category; retryability is decided by class.
 */
export type ExitCategory = 0 | 1 | 2 | 3 | 4 | 5;

export const EXIT = {
  ok: 0,
  general: 1,
  usage: 2,
  notFound: 3,
  io: 4,
  integrity: 5,
} as const satisfies Record<string, ExitCategory>;

export type SafeDetails = Record<string, unknown>;

export abstract class EtlError extends Error {
  abstract readonly exitCode: ExitCategory;
  readonly retryable: boolean = false;
  constructor(
    readonly code: string,
    message: string,
    readonly details: SafeDetails = {},
  ) {
    super(message);
    this.name = new.target.name;
  }

  toJSON(): { code: string; message: string; details: SafeDetails } {
    return { code: this.code, message: this.message, details: this.details };
  }
}

/** Bad flags, bad config, invalid limit overrides: fixed by the caller, never retried. */
export class UsageError extends EtlError {
  readonly exitCode = EXIT.usage;
}

/** A named source, session or warehouse does not exist. */
export class NotFoundError extends EtlError {
  readonly exitCode = EXIT.notFound;
}

/** A source or target could not be read or written safely (limits, encoding, disk). */
export class IoError extends EtlError {
  readonly exitCode = EXIT.io;
}

/** Contention that clears by itself (a lock held by another run or an analyst's GUI). */
export class RetryableIoError extends EtlError {
  readonly exitCode = EXIT.io;
  override readonly retryable = true;
}

/** The warehouse or a source contradicts itself or is newer than this build: fail closed. */
export class IntegrityError extends EtlError {
  readonly exitCode = EXIT.integrity;
}

/** Anything unexpected: a bug, reported without internals. */
export class InternalError extends EtlError {
  readonly exitCode = EXIT.general;
}

export function toEtlError(error: unknown): EtlError {
  if (error instanceof EtlError) return error;
  const name = error instanceof Error ? error.name : typeof error;
  return new InternalError('INTERNAL_ERROR', 'Unexpected internal error', { errorName: name });
}
