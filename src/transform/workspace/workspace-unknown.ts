/**
 * A view whose workspace evidence is damaged has an unknown workspace: `workspace_path` NULL with
 * the reason code `workspace-unknown` (NULL alone means the source names no workspace). Such a view
 * is partial, so it never replaces a complete archived session.
 */
import { diagnostic } from '../../shared/diagnostic.js';
import type { SessionView } from '../session-view.js';

export const WORKSPACE_UNKNOWN = 'workspace-unknown';

export function withUnknownWorkspace(
  view: SessionView,
  problem: { reason: string; sourceRef: string } | null,
): SessionView {
  if (problem === null) return view;
  return {
    ...view,
    workspacePath: null,
    fidelity: 'partial',
    resolutionState: view.resolutionState === 'ambiguous' ? 'ambiguous' : 'partial',
    reasonCodes: view.reasonCodes.includes(WORKSPACE_UNKNOWN)
      ? view.reasonCodes
      : [...view.reasonCodes, WORKSPACE_UNKNOWN],
    diagnostics: [
      ...view.diagnostics,
      diagnostic(
        'WORKSPACE_JSON_INVALID',
        "A Composer workspace's workspace.json is damaged; the session's workspace is unknown",
        { reason: problem.reason, outcome: 'partial' },
        { sessionId: view.sessionId, sourceRef: problem.sourceRef },
      ),
    ],
  };
}
