/** The diagnostic for a Composer database that could not be opened while a safe contributor remains. */
import { type Diagnostic, diagnostic } from '../../shared/diagnostic.js';

const CONSEQUENCE = {
  global: 'only workspace-fallback views remain',
  workspace: 'its index and workspace memberships are not available',
} as const;

export function unreadableDatabase(role: keyof typeof CONSEQUENCE, sourceRef: string): Diagnostic {
  return diagnostic(
    'SOURCE_UNREADABLE',
    `A Composer ${role} database could not be opened; ${CONSEQUENCE[role]}`,
    { sourceKind: 'composer', database: role, outcome: 'partial' },
    { severity: 'error', sourceRef },
  );
}
