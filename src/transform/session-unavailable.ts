/**
 * A session none of whose contributors could be read safely (a limit breach or bad encoding with
 * no other safe contributor): it is not loaded, the run records an error diagnostic, goes on with
 * the other sessions, and exits with this fatal I/O error at the end.
 */
import { type Diagnostic, diagnostic } from '../shared/diagnostic.js';
import { IoError } from '../shared/errors.js';

const READ_FAILURE_CODES = new Set(['SOURCE_LIMIT_EXCEEDED', 'SOURCE_ENCODING_INVALID']);

export class SessionUnavailable extends IoError {
  readonly diagnostic: Diagnostic;

  constructor(sessionId: string, readFailures: readonly Diagnostic[]) {
    const cause = readFailures.find((d) => READ_FAILURE_CODES.has(d.code));
    const code = cause?.code ?? 'SOURCE_UNREADABLE';
    const details = { ...(cause?.details ?? {}), outcome: 'fatal' };
    super(code, 'A session could not be read safely and was not loaded', details);
    this.diagnostic = diagnostic(code, this.message, details, {
      severity: 'error',
      sessionId,
      ...(cause?.sourceRef === undefined ? {} : { sourceRef: cause.sourceRef }),
    });
  }
}
