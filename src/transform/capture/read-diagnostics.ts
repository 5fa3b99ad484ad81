/** Diagnostics every line-based capture shares: malformed middle lines and a buffered partial tail. */
import type { SessionOccurrence } from '../../extract/source-adapter.js';
import { type Diagnostic, diagnostic } from '../../shared/diagnostic.js';

export function captureReadDiagnostics(
  data: { malformedLines: readonly number[]; partialTail: boolean },
  occurrence: SessionOccurrence,
): Diagnostic[] {
  const scope = { sessionId: occurrence.sessionId, sourceRef: occurrence.occurrenceRef };
  const out: Diagnostic[] = [];
  if (data.malformedLines.length > 0)
    out.push(
      diagnostic(
        'CAPTURE_MALFORMED_LINE',
        'A capture line in the middle is not a valid record; the session stays provisional',
        { lines: [...data.malformedLines], count: data.malformedLines.length },
        scope,
      ),
    );
  if (data.partialTail)
    out.push(
      diagnostic(
        'CAPTURE_PARTIAL_TAIL',
        'The capture ends with an unterminated line (a buffered tail); it was not read',
        {},
        { ...scope, severity: 'info' },
      ),
    );
  return out;
}
