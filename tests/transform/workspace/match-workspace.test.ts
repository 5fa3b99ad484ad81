import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/shared/errors.js';
import { matchWorkspace } from '../../../src/transform/workspace/match-workspace.js';

const CANDIDATES = [
  '/home/a/shared/app',
  '/home/b/shared/app',
  '/home/dev/acme-api',
  'c:/users/dev/win-proj',
];

describe('--workspace matching', () => {
  it('"A normalized exact path wins" even when it is also a suffix of another candidate', () => {
    expect(matchWorkspace('/home/dev/acme-api/', [...CANDIDATES, '/x/home/dev/acme-api'])).toEqual({
      workspacePath: '/home/dev/acme-api',
      matchKind: 'exact',
    });
    expect(matchWorkspace('file:///home/dev/acme-api', CANDIDATES).matchKind).toBe('exact');
  });

  it('"exactly one candidate whose complete trailing path components match is accepted as unique-suffix"', () => {
    expect(matchWorkspace('acme-api', CANDIDATES)).toEqual({
      workspacePath: '/home/dev/acme-api',
      matchKind: 'unique-suffix',
    });
    expect(matchWorkspace('a/shared/app', CANDIDATES)).toEqual({
      workspacePath: '/home/a/shared/app',
      matchKind: 'unique-suffix',
    });
    // A partial component never matches: `api` is not a complete trailing component of `acme-api`.
    expect(matchWorkspace('api', CANDIDATES)).toEqual({ matchKind: 'none', workspacePath: null });
  });

  it('drive-path candidates match case-insensitively, exact and by suffix', () => {
    expect(matchWorkspace('C:\\users\\DEV\\win-proj', CANDIDATES).matchKind).toBe('exact');
    expect(matchWorkspace('win-proj', CANDIDATES).workspacePath).toBe('c:/users/dev/win-proj');
  });

  it('"Multiple suffix candidates fail with WORKSPACE_AMBIGUOUS"', () => {
    let thrown: unknown;
    try {
      matchWorkspace('shared/app', CANDIDATES);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    expect((thrown as UsageError).code).toBe('WORKSPACE_AMBIGUOUS');
    expect((thrown as UsageError).details).toMatchObject({ candidateCount: 2 });
    expect(JSON.stringify((thrown as UsageError).details)).not.toContain('/home');
  });

  it('"No candidate returns an actionable empty result"', () => {
    expect(matchWorkspace('/nowhere', CANDIDATES)).toEqual({ matchKind: 'none', workspacePath: null });
  });
});
