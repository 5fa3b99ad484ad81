/**
 * Composer `usageData` (cursor-formats §8): `{}` on current builds; an older per-model
 * `{costInCents, amount}` shape is unconfirmed. A non-empty value is never read into usage or cost:
 * it is kept as stored in the session `extensions.usageData` and reported once.
 */
import { type Diagnostic, diagnostic } from '../../shared/diagnostic.js';

export interface ComposerUsageData {
  extensions: { usageData: unknown } | null;
  diagnostics: Diagnostic[];
}

function shapeOf(value: unknown): { shape: 'object' | 'array' | 'scalar'; members: number } {
  if (Array.isArray(value)) return { shape: 'array', members: value.length };
  if (typeof value === 'object' && value !== null)
    return { shape: 'object', members: Object.keys(value).length };
  return { shape: 'scalar', members: 0 };
}

export function composerUsageData(value: unknown, sessionId: string): ComposerUsageData {
  if (value === undefined || value === null) return { extensions: null, diagnostics: [] };
  const details = shapeOf(value);
  if (details.shape === 'object' && details.members === 0) return { extensions: null, diagnostics: [] };
  return {
    extensions: { usageData: value },
    diagnostics: [
      diagnostic(
        'USAGE_DATA_UNREAD',
        'A Composer usageData of an unconfirmed shape was kept, not read',
        details,
        { sessionId },
      ),
    ],
  };
}
