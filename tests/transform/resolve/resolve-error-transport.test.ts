import { describe, expect, it } from 'vitest';
import { SourceEncodingInvalid } from '../../../src/extract/text/strict-utf8.js';
import { diagnostic } from '../../../src/shared/diagnostic.js';
import { EXIT, InternalError, IoError, toEtlError } from '../../../src/shared/errors.js';
import { fromTransport, toTransport } from '../../../src/transform/resolve/resolve-error-transport.js';
import { SessionUnavailable } from '../../../src/transform/session-unavailable.js';

// What a worker posts is structured-cloned: classes are lost unless the transport rebuilds them.
const roundTrip = (error: unknown): Error => fromTransport(structuredClone(toTransport(error)));

describe('resolve errors across the worker boundary', () => {
  it('a SessionUnavailable comes back with its class, code, details and diagnostic (with or without a cause)', () => {
    const cause = diagnostic(
      'SOURCE_LIMIT_EXCEEDED',
      'limit',
      // Only the transport is under test: the details need not be a real limit breach's.
      { limit: 'sqliteValueBytes' } as never,
      { sourceRef: 'r1' },
    );
    for (const failures of [[cause], []]) {
      const original = SessionUnavailable.of('s1', failures);
      const rebuilt = roundTrip(original);
      expect(rebuilt).toBeInstanceOf(SessionUnavailable);
      const unavailable = rebuilt as SessionUnavailable;
      expect(unavailable.exitCode).toBe(EXIT.io);
      expect(unavailable.toJSON()).toEqual(original.toJSON());
      expect(unavailable.diagnostic).toEqual(original.diagnostic);
    }
  });

  it('an EtlError keeps its code, details and exit category; a subclass travels as its base', () => {
    const internal = roundTrip(new InternalError('EMPTY_SESSION_GROUP', 'empty', { n: 1 } as never));
    expect(internal).toBeInstanceOf(InternalError);
    expect((internal as InternalError).toJSON()).toEqual({
      code: 'EMPTY_SESSION_GROUP',
      message: 'empty',
      details: { n: 1 },
    });
    const encoding = roundTrip(new SourceEncodingInvalid('invalid-utf8', 'sqlite'));
    expect(encoding).toBeInstanceOf(IoError);
    expect(toEtlError(encoding).exitCode).toBe(EXIT.io);
  });

  it('any other error becomes the same INTERNAL_ERROR a local throw would', () => {
    const local = toEtlError(new TypeError('x is undefined'));
    expect(toEtlError(roundTrip(new TypeError('x is undefined'))).toJSON()).toEqual(local.toJSON());
  });
});
