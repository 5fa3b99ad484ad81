import { describe, expect, it } from 'vitest';
import { EXIT, InternalError, toEtlError, UsageError } from '../../src/shared/errors.js';

describe('fatal errors: a stable code and safe details, the original kept only as the cause', () => {
  it('an unexpected error becomes INTERNAL_ERROR (exit 1) that keeps it as cause, never in its JSON', () => {
    const original = new TypeError('secret /home/me/path in a message');
    const error = toEtlError(original);
    expect(error).toBeInstanceOf(InternalError);
    expect(error.exitCode).toBe(EXIT.general);
    expect(error.cause).toBe(original);
    expect(error.toJSON()).toEqual({
      code: 'INTERNAL_ERROR',
      message: 'Unexpected internal error',
      details: { errorName: 'TypeError' },
    });
    expect(JSON.stringify(error)).not.toContain('/home/me');
  });

  it('an EtlError passes through unchanged', () => {
    const usage = new UsageError('TARGET_INVALID', 'Unknown target kind', { received: 'sqlite' });
    expect(toEtlError(usage)).toBe(usage);
  });
});
