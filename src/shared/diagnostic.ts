/**
 * A diagnostic is a problem recorded as data: the run goes on and the problem lands in the run's
 * summary and the `diagnostics` table. Details must be safe: no content, no physical paths.
 */
export type DiagnosticSeverity = 'info' | 'warning' | 'error';

export interface Diagnostic {
  code: string;
  severity: DiagnosticSeverity;
  message: string;
  sessionId?: string;
  sourceRef?: string;
  details: Record<string, unknown>;
}

export function diagnostic(
  code: string,
  message: string,
  details: Record<string, unknown> = {},
  scope: { severity?: DiagnosticSeverity; sessionId?: string; sourceRef?: string } = {},
): Diagnostic {
  return {
    code,
    severity: scope.severity ?? 'warning',
    message,
    ...(scope.sessionId === undefined ? {} : { sessionId: scope.sessionId }),
    ...(scope.sourceRef === undefined ? {} : { sourceRef: scope.sourceRef }),
    details,
  };
}

/** Collects diagnostics for one unit of work (a session hydration, a catalog scan, a run). */
export class DiagnosticSink {
  readonly items: Diagnostic[] = [];
  add(item: Diagnostic): void {
    this.items.push(item);
  }
  addAll(items: Iterable<Diagnostic>): void {
    for (const item of items) this.items.push(item);
  }
}
