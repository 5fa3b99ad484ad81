/**
 * The workspace scope step between catalog and hydrate: `--workspace` is matched against catalogued
 * memberships, so WORKSPACE_AMBIGUOUS comes before any payload read. In-scope members are hydrated;
 * off-scope ones are omitted unless cross-workspace sources were opted into.
 */
import type { SessionOccurrence } from '../../extract/source-adapter.js';
import type { WorkspaceScope } from '../../extract/workspace-scope.js';
import { type Diagnostic, diagnostic } from '../../shared/diagnostic.js';
import type { SessionView, ViewSourceInstance } from '../session-view.js';
import { isInScope, matchWorkspace } from './match-workspace.js';

export const WORKSPACE_SCOPE_OMITTED = 'workspace-scope-omitted';
export const CROSS_WORKSPACE_OPT_IN = 'cross-workspace-opt-in';

/** The run's filter: no filter, a matched workspace, or a filter that matched nothing. */
export type RunScope = { kind: 'all' } | { kind: 'workspace'; scope: WorkspaceScope } | { kind: 'no-match' };

export interface ScopePlan<M extends { occurrence: SessionOccurrence }> {
  hydrate: M[];
  omitted: SessionOccurrence[];
  broadenedRefs: Set<string>;
}

export function membershipsOf(occurrence: SessionOccurrence): readonly string[] {
  return (
    occurrence.workspaceMemberships ?? (occurrence.workspacePath === null ? [] : [occurrence.workspacePath])
  );
}

export function resolveRunScope(
  argument: string | null,
  occurrences: readonly SessionOccurrence[],
  diagnostics: Diagnostic[],
): RunScope {
  if (argument === null) return { kind: 'all' };
  const match = matchWorkspace(argument, occurrences.flatMap(membershipsOf));
  if (match.matchKind !== 'none') return { kind: 'workspace', scope: match };
  diagnostics.push(
    diagnostic(
      'WORKSPACE_NOT_FOUND',
      'No session belongs to the requested workspace; nothing was loaded',
      { remedy: 'Check the path, or pass a trailing part of it (e.g. the project folder name).' },
      { severity: 'info' },
    ),
  );
  return { kind: 'no-match' };
}

/**
 * Input captures a workspace filter leaves out, counted in one diagnostic: a capture names its own
 * folder, so unlike a Cursor root it is never silently narrowed away.
 */
export function capturesOutsideScope(
  runScope: RunScope,
  occurrences: readonly SessionOccurrence[],
): Diagnostic | null {
  if (runScope.kind === 'all') return null;
  const outside = occurrences.filter(
    (o) =>
      o.carrier === 'capture' &&
      (runScope.kind === 'no-match' || !membershipsOf(o).some((path) => isInScope(path, runScope.scope))),
  );
  if (outside.length === 0) return null;
  return diagnostic(
    'CAPTURE_OUTSIDE_WORKSPACE',
    'Input captures of another or an unknown workspace were skipped by the workspace filter',
    {
      count: outside.length,
      withoutWorkspace: outside.filter((o) => membershipsOf(o).length === 0).length,
    },
    { severity: 'info' },
  );
}

/** The members to hydrate for one session, or null when the session is outside the filter. */
export function planScope<M extends { occurrence: SessionOccurrence }>(
  members: readonly M[],
  runScope: RunScope,
  includeCrossWorkspaceSources: boolean,
): ScopePlan<M> | null {
  if (runScope.kind === 'no-match') return null;
  if (runScope.kind === 'all') return { hydrate: [...members], omitted: [], broadenedRefs: new Set() };
  const { scope } = runScope;
  const inScope = (m: M): boolean => membershipsOf(m.occurrence).some((path) => isInScope(path, scope));
  if (!members.some(inScope)) return null;
  const offScope = members.filter((m) => !inScope(m));
  if (includeCrossWorkspaceSources)
    return {
      hydrate: [...members],
      omitted: [],
      broadenedRefs: new Set(offScope.map((m) => m.occurrence.occurrenceRef)),
    };
  return {
    hydrate: members.filter(inScope),
    omitted: offScope.map((m) => m.occurrence),
    broadenedRefs: new Set(),
  };
}

function roleOf(representation: SessionOccurrence['representation']): ViewSourceInstance['sourceRole'] {
  if (representation.startsWith('composer')) return 'composer';
  if (representation.startsWith('store')) return 'store';
  if (representation === 'cli-stream') return 'cli';
  if (representation === 'cloud-capture') return 'cloud';
  return 'markdown';
}

/** Records the plan in the view: omitted contributors make it explicitly partial; broadened ones are disclosed. */
export function applyScopePlan(
  view: SessionView,
  plan: Pick<ScopePlan<{ occurrence: SessionOccurrence }>, 'omitted' | 'broadenedRefs'>,
): SessionView {
  const instances = view.instances.map((instance) =>
    plan.broadenedRefs.has(instance.occurrenceRef) && instance.reasonCode === null
      ? { ...instance, reasonCode: CROSS_WORKSPACE_OPT_IN }
      : instance,
  );
  if (plan.omitted.length === 0) return { ...view, instances };
  for (const occurrence of plan.omitted)
    instances.push({
      sourceRole: roleOf(occurrence.representation),
      representation: occurrence.representation,
      state: 'omitted-by-scope',
      occurrenceRef: occurrence.occurrenceRef,
      carrier: occurrence.carrier,
      workspacePath: occurrence.workspacePath,
      reasonCode: WORKSPACE_SCOPE_OMITTED,
    });
  return {
    ...view,
    instances,
    fidelity: 'partial',
    resolutionState: view.resolutionState === 'ambiguous' ? 'ambiguous' : 'partial',
    reasonCodes: [...new Set([...view.reasonCodes, WORKSPACE_SCOPE_OMITTED])],
    sourceKeys: view.sourceKeys,
  };
}
