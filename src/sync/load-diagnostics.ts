/** Diagnostics for load decisions that keep archived rows instead of loading the incoming view. */
import type { LoadResult } from '../load/target.js';
import { type Diagnostic, diagnostic } from '../shared/diagnostic.js';

export function keptSessionDiagnostics(results: readonly LoadResult[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const { sessionId, action, setAside, originRule } of results) {
    if (originRule === 'keep-newer') {
      out.push(
        diagnostic(
          'ORIGIN_VIEW_KEPT_NEWER',
          "Another origin's older view of the session was not loaded; the archived view is newer and extends it",
          { action: 'keep-complete', rule: 'newer-extends' },
          { sessionId },
        ),
      );
    } else if (originRule === 'diverged') {
      out.push(
        diagnostic(
          'ORIGIN_VIEWS_DIVERGED',
          'Two origins hold different complete views of the session; the archived rows are kept unchanged',
          { action: 'keep-ambiguous', rule: 'origins-diverge' },
          { sessionId },
        ),
      );
    } else if (action === 'keep-complete') {
      out.push(
        diagnostic(
          'PARTIAL_VIEW_KEPT_COMPLETE',
          'A partial view was not loaded over the archived complete session; the archive is unchanged',
          { action },
          { sessionId },
        ),
      );
    } else if (action === 'keep-cursor-data') {
      out.push(
        diagnostic(
          'CAPTURE_SET_ASIDE',
          "The archived session is backed by Cursor's own data; a capture of the same session was set aside",
          {
            kept: 'archived',
            keptFidelity: 'complete',
            setAside: setAside?.representations ?? [],
            setAsideFidelity: setAside?.fidelity ?? 'complete',
            rule: 'cursor-data-first',
          },
          { sessionId },
        ),
      );
    } else if (action === 'keep-ambiguous') {
      out.push(
        diagnostic(
          'AMBIGUOUS_VIEW_KEPT_ARCHIVED',
          'Divergent replicas make the session ambiguous; the archived rows are kept unchanged',
          { action },
          { sessionId },
        ),
      );
    }
  }
  return out;
}
