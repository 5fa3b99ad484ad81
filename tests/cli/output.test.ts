import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportFatal } from '../../src/cli/output.js';

function stderrOf(run: () => void): string {
  const chunks: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    chunks.push(String(chunk));
    return true;
  });
  try {
    run();
  } finally {
    spy.mockRestore();
  }
  return chunks.join('');
}

describe('a fatal error on stderr: internals only with CURSOR_ETL_DEBUG=1', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });
  const bug = (): Error => new TypeError('boom at /home/me/secret');

  it('without CURSOR_ETL_DEBUG the JSON error holds code, message and safe details only', () => {
    vi.stubEnv('CURSOR_ETL_DEBUG', '');
    const stderr = stderrOf(() => expect(reportFatal(bug(), true)).toBe(1));
    expect(JSON.parse(stderr)).toEqual({
      error: {
        code: 'INTERNAL_ERROR',
        message: 'Unexpected internal error',
        details: { errorName: 'TypeError' },
      },
    });
    expect(stderr).not.toContain('/home/me');
  });

  it('with CURSOR_ETL_DEBUG=1 the original error and its causes follow, stacks included', () => {
    vi.stubEnv('CURSOR_ETL_DEBUG', '1');
    const wrapped = new Error('outer', { cause: bug() });
    const stderr = stderrOf(() => reportFatal(wrapped, false));
    expect(stderr).toMatch(/^etl: error INTERNAL_ERROR: Unexpected internal error\n/);
    expect(stderr).toContain('Error: outer\n    at ');
    expect(stderr).toContain('TypeError: boom at /home/me/secret\n    at ');
  });
});
