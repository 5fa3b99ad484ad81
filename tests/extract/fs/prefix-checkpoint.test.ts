import { appendFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  decideResume,
  isPrefixCheckpoint,
  takeCheckpoint,
} from '../../../src/extract/fs/prefix-checkpoint.js';
import { tempDir } from '../../helpers/run-cli.js';

const LINES = '{"role":"user","text":"a"}\n{"role":"assistant","text":"b"}\n';

function transcript(): string {
  const path = join(tempDir(), 'session.jsonl');
  writeFileSync(path, LINES);
  return path;
}

describe('verified prefix checkpoints (device, inode, size, prefix hash)', () => {
  it('an append-only growth resumes exactly after the verified prefix', () => {
    const path = transcript();
    const checkpoint = takeCheckpoint(path);
    expect(isPrefixCheckpoint(JSON.parse(JSON.stringify(checkpoint)))).toBe(true);
    appendFileSync(path, '{"role":"user","text":"c"}\n');
    expect(decideResume(path, checkpoint)).toEqual({ resume: true, offset: Buffer.byteLength(LINES) });
  });

  it('no checkpoint → full re-read', () => {
    expect(decideResume(transcript(), null)).toEqual({ resume: false, reason: 'no-checkpoint' });
  });

  it('shrink → full re-read, never a guess', () => {
    const path = transcript();
    const checkpoint = takeCheckpoint(path);
    truncateSync(path, 10);
    expect(decideResume(path, checkpoint)).toEqual({ resume: false, reason: 'shrunk' });
  });

  it('same size but rewritten bytes (prefix mismatch) → full re-read', () => {
    const path = transcript();
    const checkpoint = takeCheckpoint(path);
    writeFileSync(path, LINES.replace('"a"', '"z"'));
    expect(decideResume(path, checkpoint)).toEqual({ resume: false, reason: 'prefix-mismatch' });
  });

  it('a replaced file (new inode, same bytes) → full re-read', () => {
    const path = transcript();
    const checkpoint = takeCheckpoint(path);
    const replacement = `${path}.new`;
    writeFileSync(replacement, `${LINES}more\n`);
    renameSync(replacement, path);
    expect(decideResume(path, checkpoint)).toEqual({ resume: false, reason: 'replaced' });
  });
});
