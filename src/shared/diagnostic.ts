/**
 * A diagnostic is a problem recorded as data: the run goes on and the problem lands in the run's
 * summary and the `diagnostics` table. Details must be safe: no content, no physical paths. Codes
 * and their details are those of the catalogue (`diagnostic-catalogue.ts`).
 */
import type { Code, DetailsOf } from './diagnostic-catalogue.js';

export type DiagnosticSeverity = 'info' | 'warning' | 'error';

/** Reading a field a code does not declare yields `unknown`, as for any safe JSON object. */
export type ReadableDetails<C extends Code> = DetailsOf<C> & { readonly [field: string]: unknown };

interface DiagnosticOf<C extends Code> {
  code: C;
  severity: DiagnosticSeverity;
  message: string;
  sessionId?: string;
  sourceRef?: string;
  /** The whole source was refused (fail closed): none of it was loaded. */
  failClosed?: true;
  details: ReadableDetails<C>;
}

/** One member per code, so `code` narrows `details`. */
export type Diagnostic<C extends Code = Code> = C extends Code ? DiagnosticOf<C> : never;

export interface DiagnosticScope {
  severity?: DiagnosticSeverity;
  sessionId?: string;
  sourceRef?: string;
}

/** The details argument may be left out when the code declares no required field. */
export type DetailsArgs<C extends Code, Rest extends unknown[] = []> =
  Record<string, never> extends DetailsOf<C>
    ? [details?: DetailsOf<C>, ...rest: Partial<Rest>]
    : [details: DetailsOf<C>, ...rest: Partial<Rest>];

export function diagnostic<C extends Code>(
  code: C,
  message: string,
  ...[details, scope = {}]: DetailsArgs<C, [scope: DiagnosticScope]>
): Diagnostic<C> {
  return {
    code,
    severity: scope.severity ?? 'warning',
    message,
    ...(scope.sessionId === undefined ? {} : { sessionId: scope.sessionId }),
    ...(scope.sourceRef === undefined ? {} : { sourceRef: scope.sourceRef }),
    details: details ?? {},
  } as Diagnostic<C>;
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
