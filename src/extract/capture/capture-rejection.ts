/**
 * Why a whole capture source is refused before any of its rows is written (fail closed): a
 * declared unknown major version, a session ID that changes inside one file, or a read failure
 * (limit, encoding). Details are safe: no content, no paths.
 */
import { type Diagnostic, diagnostic } from '../../shared/diagnostic.js';
import { EtlError, IntegrityError, IoError } from '../../shared/errors.js';

export class CaptureSchemaUnsupported extends IntegrityError<'CAPTURE_SCHEMA_UNSUPPORTED'> {
  constructor(surface: string, declared: string) {
    super('CAPTURE_SCHEMA_UNSUPPORTED', 'The capture declares an unknown major schema version', {
      surface,
      declared,
      remedy: 'Upgrade cursor-etl to a version that reads this capture format.',
    });
  }
}

export class CaptureSessionIdChanged extends IntegrityError<'CAPTURE_SESSION_ID_CHANGED'> {
  /** `at`: the 1-based line where it changed, or the document field that disagrees. */
  constructor(surface: string, at: { line: number } | { field: string }) {
    super('CAPTURE_SESSION_ID_CHANGED', 'The session ID changes inside one capture file', {
      surface,
      ...at,
      remedy: 'Split concatenated captures into one file per session.',
    });
  }
}

export class CaptureDocumentMalformed extends IntegrityError<'CAPTURE_DOCUMENT_MALFORMED'> {
  constructor(surface: string) {
    super('CAPTURE_DOCUMENT_MALFORMED', 'The capture document is not valid JSON of its format', {
      surface,
      remedy: 'Save the complete response body again; a cut or edited document cannot be read safely.',
    });
  }
}

/**
 * The diagnostic recorded when a source is refused: `failClosed` marks it for the run's exit rule
 * (its echo in the details is what users see in the diagnostics table).
 */
export function rejectionDiagnostic(error: unknown, sourceRef: string): Diagnostic {
  const etl =
    error instanceof EtlError
      ? error
      : new IoError('CAPTURE_UNREADABLE', 'The capture could not be read', {
          errorCode: (error as NodeJS.ErrnoException)?.code ?? 'unknown',
        });
  return {
    ...diagnostic(
      etl.code,
      `${etl.message}; the capture source was not loaded`,
      { ...etl.details, outcome: 'fatal', failClosed: true },
      { severity: 'error', sourceRef },
    ),
    failClosed: true,
  };
}

export class CaptureSessionIdMissing extends IntegrityError<'CAPTURE_SESSION_ID_MISSING'> {
  constructor(surface: string) {
    super('CAPTURE_SESSION_ID_MISSING', 'The capture names no session, so it has no stable identity', {
      surface,
      remedy: 'Capture the stream from its start (the first events carry the session or run ID).',
    });
  }
}

/**
 * Fatal (exit 4) only when sources were refused and nothing else was catalogued; otherwise the
 * refusals stay diagnostics of a successful run.
 */
export function nothingLoadedError(diagnostics: readonly Diagnostic[], occurrences: number): EtlError | null {
  if (occurrences > 0) return null;
  const refused = diagnostics.find((item) => item.failClosed === true);
  if (!refused) return null;
  const { failClosed: _f, ...details } = refused.details;
  return new IoError(refused.code, 'No source could be loaded; every capture source was refused', {
    ...details,
    refusedSources: diagnostics.filter((item) => item.failClosed === true).length,
  });
}
