/**
 * `--workspace` matching (contract "Workspace matching and payload I/O"): a normalized exact path
 * wins; else exactly one candidate whose complete trailing components match; several such candidates
 * fail with WORKSPACE_AMBIGUOUS; none is an actionable empty result.
 */
import { homedir } from 'node:os';
import type { WorkspaceScope } from '../../extract/workspace-scope.js';
import { UsageError } from '../../shared/errors.js';
import {
  isWindowsPath,
  normalizeWorkspacePath,
  pathComponents,
} from '../../shared/normalize-workspace-path.js';

export type WorkspaceMatch = WorkspaceScope | { matchKind: 'none'; workspacePath: null };

/** The argument's comparable components: an absolute path or URI is normalized, a relative one split. */
function argumentComponents(argument: string): { exact: string | null; components: string[]; fold: boolean } {
  const expanded = argument.startsWith('~/') || argument === '~' ? homedir() + argument.slice(1) : argument;
  const normalized = normalizeWorkspacePath(expanded);
  if (normalized !== null)
    return {
      exact: normalized,
      components: pathComponents(normalized),
      fold: isWindowsPath(normalized),
    };
  const components = expanded
    .replaceAll('\\', '/')
    .split('/')
    .filter((part) => part !== '' && part !== '.');
  return { exact: null, components, fold: false };
}

function endsWithComponents(candidate: string, suffix: readonly string[], fold: boolean): boolean {
  const parts = pathComponents(candidate);
  if (suffix.length === 0 || suffix.length > parts.length) return false;
  const caseInsensitive = fold || isWindowsPath(candidate);
  const tail = parts.slice(parts.length - suffix.length);
  return tail.every((part, i) =>
    caseInsensitive ? part.toLowerCase() === suffix[i]!.toLowerCase() : part === suffix[i],
  );
}

export function matchWorkspace(argument: string, candidates: Iterable<string>): WorkspaceMatch {
  const unique = [...new Set(candidates)].sort();
  const { exact, components, fold } = argumentComponents(argument);
  if (exact !== null) {
    // Stored values are normalized, so the normalized argument selects exactly what they say.
    if (unique.includes(exact)) return { workspacePath: exact, matchKind: 'exact' };
  }
  const suffixHits = unique.filter((candidate) => endsWithComponents(candidate, components, fold));
  if (suffixHits.length === 1) return { workspacePath: suffixHits[0]!, matchKind: 'unique-suffix' };
  if (suffixHits.length > 1)
    throw new UsageError('WORKSPACE_AMBIGUOUS', 'The workspace filter matches several workspaces', {
      candidateCount: suffixHits.length,
      matchKind: 'unique-suffix',
      remedy: 'Pass the full normalized workspace path to --workspace.',
    });
  return { matchKind: 'none', workspacePath: null };
}

/** True when a normalized membership path is the selected workspace. */
export function isInScope(path: string | null, scope: WorkspaceScope): boolean {
  return path === scope.workspacePath;
}
