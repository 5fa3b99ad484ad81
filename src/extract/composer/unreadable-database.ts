/**
 * A Composer database that could not be opened while a safe contributor remains: reported, and
 * recorded as unread so its archived sessions are not concluded absent; an unread global database
 * (the sessions' backbone) fails the run once the other sessions are committed.
 */
import { type Diagnostic, diagnostic } from '../../shared/diagnostic.js';
import type { SourceLimitExceeded } from '../limits/limit-exceeded.js';
import type { ReadContext } from '../source-adapter.js';
import type { SourceEncodingInvalid } from '../text/strict-utf8.js';

const CONSEQUENCE = {
  global: 'only workspace-fallback views remain',
  workspace: 'its index and workspace memberships are not available',
} as const;

export function reportUnreadableDatabase(
  ctx: ReadContext,
  role: keyof typeof CONSEQUENCE,
  sourceKey: string,
): void {
  ctx.unreadSources?.set(sourceKey, { failsRun: role === 'global' });
  ctx.diagnostics?.add(unreadableDatabase(role, sourceKey));
}

/**
 * A workspace index past a read bound (or not UTF-8) is not used, as if its database were unopenable:
 * the global DB still carries its sessions, and its archived sessions are not concluded absent.
 */
export function reportUnreadIndex(
  ctx: ReadContext,
  sourceKey: string,
  error: SourceLimitExceeded | SourceEncodingInvalid,
): void {
  ctx.unreadSources?.set(sourceKey, { failsRun: false });
  ctx.diagnostics?.add(error.asDiagnostic({ sourceRef: sourceKey }));
}

function unreadableDatabase(role: keyof typeof CONSEQUENCE, sourceRef: string): Diagnostic {
  return diagnostic(
    'SOURCE_UNREADABLE',
    `A Composer ${role} database could not be opened; ${CONSEQUENCE[role]}`,
    { sourceKind: 'composer', database: role, outcome: 'partial' },
    { severity: 'error', sourceRef },
  );
}
