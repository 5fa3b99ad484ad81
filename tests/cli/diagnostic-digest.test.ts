import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnosticDigest } from '../../src/cli/diagnostic-digest.js';
import { diagnostic } from '../../src/shared/diagnostic.js';
import { CATALOGUE } from '../../src/shared/diagnostic-catalogue.js';

const missing = (root: string) => diagnostic('SOURCE_ROOT_MISSING', 'missing', { root });

describe('human digest of a run’s diagnostics', () => {
  it('prints each warning or error code once, with its count, meaning and remedy, errors first', () => {
    const lines = diagnosticDigest([
      missing('cursorUserDir'),
      diagnostic('WORKSPACE_JSON_INVALID', 'bad', { reason: 'cut' }),
      missing('cursorStoreRoot'),
      diagnostic('WORKSPACE_JSON_INVALID', 'bad', { reason: 'cut' }, { severity: 'error' }),
    ]);
    expect(lines).toEqual([
      `error WORKSPACE_JSON_INVALID ×2: ${CATALOGUE.WORKSPACE_JSON_INVALID.meaning}`,
      `  → ${CATALOGUE.WORKSPACE_JSON_INVALID.remedy}`,
      `warning SOURCE_ROOT_MISSING ×2: ${CATALOGUE.SOURCE_ROOT_MISSING.meaning}`,
      `  → ${CATALOGUE.SOURCE_ROOT_MISSING.remedy}`,
    ]);
  });

  it('says where default discovery looked, home-relative, and only counts info codes', () => {
    const lines = diagnosticDigest(
      [
        missing('cursorUserDir'),
        diagnostic('WORKSPACE_NOT_FOUND', 'none', { remedy: 'Pass the folder name.' }, { severity: 'info' }),
      ],
      { cursorUserDir: join(homedir(), '.config', 'Cursor', 'User') },
    );
    expect(lines[1]).toBe(`  → ${CATALOGUE.SOURCE_ROOT_MISSING.remedy} Looked at ~/.config/Cursor/User.`);
    expect(lines[2]).toBe('1 info diagnostic (--json lists them)');
    expect(lines).toHaveLength(3);
  });

  it('prefers the remedy a diagnostic carries over the catalogue’s', () => {
    const lines = diagnosticDigest([
      diagnostic('WORKSPACE_NOT_FOUND', 'none', { remedy: 'Pass the folder name.' }, { severity: 'warning' }),
    ]);
    expect(lines[1]).toBe('  → Pass the folder name.');
  });

  it('an empty run prints no digest', () => {
    expect(diagnosticDigest([])).toEqual([]);
  });
});
