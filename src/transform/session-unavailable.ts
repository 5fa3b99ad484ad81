/**
 * A session none of whose contributors could be read safely (a limit breach or bad encoding with
 * no other safe contributor): it is not loaded, the run records an error diagnostic, goes on with
 * the other sessions, and exits with this fatal I/O error at the end.
 */
import { type Diagnostic, diagnostic } from '../shared/diagnostic.js';
import { IoError } from '../shared/errors.js';

type ReadFailureCode = 'SOURCE_LIMIT_EXCEEDED' | 'SOURCE_ENCODING_INVALID';
const READ_FAILURE_CODES: ReadonlySet<string> = new Set<ReadFailureCode>([
  'SOURCE_LIMIT_EXCEEDED',
  'SOURCE_ENCODING_INVALID',
]);

/** Errors a source's own bytes raise (a read bound, an encoding, a damaged file), never a bug of ours. */
const SOURCE_READ_ERRORS: ReadonlySet<string> = new Set([...READ_FAILURE_CODES, 'SOURCE_UNREADABLE']);

export function isSourceReadError(error: unknown): error is IoError {
  return error instanceof IoError && SOURCE_READ_ERRORS.has(error.code);
}

/** A read limit breach or an invalid encoding: the failures that make a contributor unsafe. */
export function isReadFailure(d: Diagnostic): d is Diagnostic<ReadFailureCode> {
  return READ_FAILURE_CODES.has(d.code);
}

export class SessionUnavailable extends IoError {
  /** Built from its diagnostic, so an error that crossed a worker boundary as data is the same error. */
  constructor(readonly diagnostic: Diagnostic) {
    super(diagnostic.code, diagnostic.message, diagnostic.details);
  }

  /**
   * An unread source that carries sessions no other source can stand in for: its own `failure`, else
   * the global Composer DB's.
   */
  static ofSource(sourceRef: string, failure?: Diagnostic): SessionUnavailable {
    return new SessionUnavailable(
      failure ??
        diagnostic(
          'SOURCE_UNREADABLE',
          'A source database could not be read; its archived sessions were kept as they are',
          { sourceKind: 'composer', database: 'global', outcome: 'fatal' },
          { severity: 'error', sourceRef },
        ),
    );
  }

  /**
   * A read that threw `error` (`isSourceReadError`): one contributor of a session (`sessionId`), or a
   * whole source's catalog (none).
   */
  static ofError(error: IoError, scope: { sessionId?: string; sourceRef: string }): SessionUnavailable {
    const message =
      scope.sessionId === undefined
        ? 'A source could not be catalogued; its archived sessions were kept as they are'
        : 'A session could not be read safely and was not loaded';
    return new SessionUnavailable(
      diagnostic(error.code, message, { ...error.details, outcome: 'fatal' } as never, {
        severity: 'error',
        ...scope,
      }) as Diagnostic,
    );
  }

  /** The error for `sessionId` from its contributors' read failures (the first limit or encoding one). */
  static of(sessionId: string, readFailures: readonly Diagnostic[]): SessionUnavailable {
    const cause = readFailures.find(isReadFailure);
    const code = cause?.code ?? 'SOURCE_UNREADABLE';
    const details = { ...(cause?.details ?? {}), outcome: 'fatal' as const };
    return new SessionUnavailable(
      diagnostic(code, 'A session could not be read safely and was not loaded', details, {
        severity: 'error',
        sessionId,
        ...(cause?.sourceRef === undefined ? {} : { sourceRef: cause.sourceRef }),
      }),
    );
  }
}
