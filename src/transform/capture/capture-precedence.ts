/**
 * A capture of a session Cursor also holds: the two are never unioned. Cursor's view wins unless it
 * is partial (not ambiguous) and the capture complete; the loser is `superseded`, one
 * CAPTURE_SET_ASIDE names it, and the kept view depends on every source key.
 */
import { diagnostic } from '../../shared/diagnostic.js';
import type { SessionView, ViewSourceInstance } from '../session-view.js';

const ACTIVE_STATES = new Set<ViewSourceInstance['state']>(['contributed', 'equivalent-replica']);

function setAside(instances: readonly ViewSourceInstance[], reasonCode: string): ViewSourceInstance[] {
  return instances.map((instance) =>
    ACTIVE_STATES.has(instance.state) ? { ...instance, state: 'superseded', reasonCode } : instance,
  );
}

export function resolveCaptureWithCursor(cursor: SessionView, capture: SessionView): SessionView {
  const captureWins =
    capture.fidelity === 'complete' &&
    capture.resolutionState !== 'ambiguous' &&
    cursor.fidelity === 'partial' &&
    cursor.resolutionState !== 'ambiguous';
  const [kept, dropped] = captureWins ? [capture, cursor] : [cursor, capture];
  const reason = captureWins ? 'superseded-by-complete-capture' : 'capture-superseded-by-cursor-data';
  const droppedInstances = setAside(dropped.instances, reason);
  const representations = [
    ...new Set(droppedInstances.filter((i) => i.reasonCode === reason).map((i) => i.representation)),
  ].sort();
  return {
    ...kept,
    instances: [...kept.instances, ...droppedInstances],
    diagnostics: [
      ...kept.diagnostics,
      ...dropped.diagnostics,
      diagnostic(
        'CAPTURE_SET_ASIDE',
        captureWins
          ? "A complete capture replaced Cursor's partial data for this session; Cursor's data was set aside"
          : "Cursor's own data for this session was kept; a capture of the same session was set aside",
        {
          kept: kept.resolvedSource,
          keptFidelity: kept.fidelity,
          setAside: representations,
          setAsideFidelity: dropped.fidelity,
          rule: captureWins ? 'complete-over-partial' : 'cursor-data-first',
        },
        { sessionId: kept.sessionId },
      ),
    ],
    sourceKeys: [...new Set([...kept.sourceKeys, ...dropped.sourceKeys])].sort(),
  };
}
