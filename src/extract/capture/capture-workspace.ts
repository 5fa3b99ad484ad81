/**
 * The folders a capture belongs to, read at catalog time so `--workspace` can select captures: a CLI
 * stream's `cwd` (its last `system`/`init` event), a Cloud agent's repositories (`repos[].url`,
 * `source.repository`, `git.branches[].repoUrl`). Each goes through the shared normalizer.
 */
import { normalizeRepositoryUrl, normalizeWorkspacePath } from '../../shared/normalize-workspace-path.js';
import type { CliCapture, CloudAgentCapture, CloudV0Conversation } from './capture-contribution.js';

export interface CaptureWorkspace {
  workspacePath: string | null;
  workspaceMemberships: string[];
}

function of(paths: readonly (string | null)[]): CaptureWorkspace {
  const memberships = [...new Set(paths.filter((p): p is string => p !== null))];
  return { workspacePath: memberships[0] ?? null, workspaceMemberships: memberships };
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Repository URLs named by an agent or run object, or a response wrapping them, in document order. */
function repositoryUrls(value: unknown, depth = 0): string[] {
  const object = record(value);
  if (object === null || depth > 2) return [];
  const urls: unknown[] = [
    ...list(object.repos).map((repo) => record(repo)?.url),
    record(object.source)?.repository,
    ...list(record(object.git)?.branches).map((branch) => record(branch)?.repoUrl),
  ];
  const found = urls.filter((url): url is string => typeof url === 'string');
  for (const nested of [object.agent, object.run, ...list(object.items)])
    found.push(...repositoryUrls(nested, depth + 1));
  return found;
}

export function cliCaptureWorkspace(data: CliCapture): CaptureWorkspace {
  let cwd: string | null = null;
  for (const { event } of data.records)
    if (event.type === 'system' && event.subtype === 'init' && typeof event.cwd === 'string') cwd = event.cwd;
  return of([cwd === null ? null : normalizeWorkspacePath(cwd)]);
}

export function cloudCaptureWorkspace(data: CloudAgentCapture): CaptureWorkspace {
  return of(
    data.records
      .flatMap((r) => [...repositoryUrls(r.body), ...repositoryUrls(r.data)])
      .map(normalizeRepositoryUrl),
  );
}

export function cloudV0Workspace(data: CloudV0Conversation): CaptureWorkspace {
  return of(repositoryUrls(data.agent).map(normalizeRepositoryUrl));
}
