/**
 * Matches a `--workspace` argument against the inventory's workspace paths before any database is
 * extracted: a lexically normalized exact path wins, else exactly one candidate whose trailing
 * complete components match; several suffix candidates are WORKSPACE_AMBIGUOUS.
 */
import { UsageError } from '../../shared/errors.js';

function components(path: string): string[] {
  return path
    .replace(/\\/g, '/')
    .split('/')
    .filter((part) => part !== '' && part !== '.');
}

function endsWith(candidate: string[], suffix: string[]): boolean {
  if (suffix.length === 0 || suffix.length > candidate.length) return false;
  const offset = candidate.length - suffix.length;
  return suffix.every((part, i) => candidate[offset + i] === part);
}

/** The matching inventory paths (one, or none for an actionable empty result). */
export function matchInventoryPath(requested: string, paths: readonly (string | null)[]): string | null {
  const wanted = components(requested);
  const known = [...new Set(paths.filter((p): p is string => p !== null))];
  const exact = known.filter((p) => components(p).join('/') === wanted.join('/'));
  if (exact.length > 0) return exact[0]!;
  const suffix = known.filter((p) => endsWith(components(p), wanted));
  if (suffix.length > 1)
    throw new UsageError('WORKSPACE_AMBIGUOUS', 'The workspace filter matches several archived workspaces', {
      candidates: suffix.length,
    });
  return suffix[0] ?? null;
}
