import { describe, expect, it, vi } from 'vitest';

const required = vi.hoisted((): string[] => []);

vi.mock('../../../src/shared/require-commonjs.js', async (original) => {
  const { recordingRequireModule } = await import('../../helpers/recorded-requires.js');
  return recordingRequireModule(await original(), required);
});

describe('the zip reader behind backup archives', () => {
  it('is not required until an archive is opened, so a run without --backup never loads it', async () => {
    const { openZipIndex } = await import('../../../src/extract/backup/zip-index.js');
    expect(typeof openZipIndex).toBe('function');
    expect(required).not.toContain('yauzl');
  });
});
