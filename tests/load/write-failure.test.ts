import { describe, expect, it } from 'vitest';
import { asWriteFailure, storageErrorReason } from '../../src/load/write-failure.js';
import { EXIT, IoError, UsageError } from '../../src/shared/errors.js';

const errno = (code: string, message: string): Error => Object.assign(new Error(message), { code });

describe('storage errors on the write path become WAREHOUSE_WRITE_FAILED (I/O-error category 4)', () => {
  it.each([
    [errno('ENOSPC', 'ENOSPC: no space left on device, write'), 'ENOSPC'],
    [errno('EIO', 'EIO: i/o error, fsync'), 'EIO'],
    [
      new Error('IO Error: Could not write file "/secret/dir/w.duckdb.wal": No space left on device'),
      'ENOSPC',
    ],
    [new Error('IO Error: Could not fsync file "/secret/x": Input/output error'), 'EIO'],
    [new Error('IO Error: Could not truncate file "/secret/x": Disk quota exceeded'), 'EDQUOT'],
    [new Error('IO Error: something DuckDB-specific'), 'EIO'],
  ])('%s → reason %s', (error, reason) => {
    expect(storageErrorReason(error)).toBe(reason);
    const typed = asWriteFailure(error, 'duckdb', 'transaction') as IoError;
    expect(typed).toBeInstanceOf(IoError);
    expect(typed.exitCode).toBe(EXIT.io);
    expect(typed.code).toBe('WAREHOUSE_WRITE_FAILED');
    expect(typed.details).toMatchObject({ target: 'duckdb', operation: 'transaction', reason });
    expect(JSON.stringify(typed.toJSON())).not.toContain('/secret');
  });

  it('leaves other errors alone: typed errors pass through, bugs stay bugs', () => {
    const usage = new UsageError('TARGET_INVALID', 'x', { received: 'x' });
    expect(asWriteFailure(usage, 'parquet', 'manifest')).toBe(usage);
    const bug = new TypeError('cannot read properties of undefined');
    expect(asWriteFailure(bug, 'parquet', 'manifest')).toBe(bug);
    const notStorage = errno('ENOENT', 'ENOENT: no such file');
    expect(asWriteFailure(notStorage, 'parquet', 'manifest')).toBe(notStorage);
    expect(storageErrorReason(new Error('Binder Error: column x not found'))).toBeNull();
  });
});

describe('permission refusals on the write path become PERMISSION_DENIED (exit 4) with a remedy that fits', () => {
  const REFUSALS = [
    ['EACCES', 'Permission denied'],
    ['EPERM', 'Operation not permitted'],
    ['EROFS', 'Read-only file system'],
  ] as const;
  const cases = REFUSALS.flatMap(([code, text]) =>
    (['duckdb', 'parquet'] as const).flatMap((target) => [
      { code, target, error: errno(code, `${code}: ${text.toLowerCase()}, open '/secret/w'`) },
      { code, target, error: new Error(`IO Error: Cannot open file "/secret/w.duckdb": ${text}`) },
    ]),
  );
  it.each(cases)('$target, $code ($error.message)', ({ code, target, error }) => {
    const typed = asWriteFailure(error, target, 'manifest', { published: true }) as IoError;
    expect(typed).toBeInstanceOf(IoError);
    expect(typed.exitCode).toBe(EXIT.io);
    expect(typed.code).toBe('PERMISSION_DENIED');
    expect(typed.message).toMatch(/permission denied/i);
    expect(typed.details).toMatchObject({
      pathKind: target === 'duckdb' ? 'warehouse' : 'dataset',
      operation: 'manifest',
      reason: code,
      published: true,
    });
    // A read-only file system is remounted or avoided; chmod does not fix it.
    expect(String(typed.details.remedy)).toMatch(code === 'EROFS' ? /read-only/ : /write access/);
    expect(String(typed.details.remedy)).not.toMatch(/free space/i);
    expect(JSON.stringify(typed.toJSON())).not.toContain('/secret');
  });
});
