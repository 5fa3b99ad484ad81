/**
 * Tool-call status within one source only moves forward: a call announced again as started or
 * running after it finished (a replayed or reordered event) keeps its finished status.
 */
const IN_PROGRESS: ReadonlySet<string> = new Set(['started', 'running', 'unknown']);

export function advanceToolStatus(prior: string | null, next: string): string {
  return prior !== null && !IN_PROGRESS.has(prior) && IN_PROGRESS.has(next) ? prior : next;
}
