/**
 * Whole-session replace safety: what to do with an incoming session view given the archived one.
 * The unit is the whole session; digests decide change; a partial view never overwrites a complete
 * one; an ambiguity never replaces archived rows; identical input writes nothing.
 */
export type LoadAction = 'insert' | 'unchanged' | 'replace' | 'keep-complete' | 'keep-ambiguous';

export interface ArchivedState {
  viewDigest: string;
  fidelity: 'complete' | 'partial';
}

export interface IncomingState {
  viewDigest: string;
  fidelity: 'complete' | 'partial';
  resolutionState: 'complete' | 'partial' | 'ambiguous';
}

export function decideLoad(archived: ArchivedState | undefined, incoming: IncomingState): LoadAction {
  if (archived === undefined) return 'insert';
  if (archived.viewDigest === incoming.viewDigest) return 'unchanged';
  if (incoming.resolutionState === 'ambiguous') return 'keep-ambiguous';
  if (incoming.fidelity === 'partial' && archived.fidelity === 'complete') return 'keep-complete';
  return 'replace';
}
