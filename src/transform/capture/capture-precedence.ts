/**
 * A capture of a session Cursor also holds (Composer and/or Store data with the same byte-exact
 * ID; the CLI `session_id` is the Store agent ID). The two are different representations, never
 * unioned; the contract's fidelity rule decides, and the outcome is always disclosed:
 * - Cursor's view is complete, or ambiguous, or both are partial → Cursor's view (the Matrix v1
 *   representation) is kept and the captures are `superseded`;
 * - Cursor's view is partial (not ambiguous) and the capture view complete → complete beats
 *   partial: the capture view is kept and the Cursor instances are `superseded`.
 * Either way one CAPTURE_SET_ASIDE diagnostic names the representations set aside (no content,
 * no paths), and the kept view depends on every source key (so the sync ledger sees both).
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
