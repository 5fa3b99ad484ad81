import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { writeCapture } from '../../../fixtures/capture/write-capture.js';
import { CLI_CAPTURE } from '../../../fixtures/hostile/baseline-sources.js';
import { CaptureAdapter } from '../../../src/extract/capture/capture-adapter.js';
import type { SourceRoots } from '../../../src/extract/source-adapter.js';
import { denied } from '../../helpers/denied-fs.js';
import { tempDir } from '../../helpers/run-cli.js';

vi.mock('node:fs', async (original) =>
  (await import('../../helpers/denied-fs.js')).deniedFs(await original()),
);

const roots = (inputs: string[]): SourceRoots => ({
  cursorUserDir: null,
  cursorStoreRoot: null,
  inputs,
  backups: [],
  carrier: 'capture',
});

async function discover(inputs: string[]) {
  const adapter = new CaptureAdapter();
  const sources = await adapter.discover(roots(inputs));
  return { sources: sources.map((s) => s.locator), diagnostics: adapter.drainDiagnostics() };
}

describe('capture discovery of inputs it may not read', () => {
  it('refuses a file it cannot open (CAPTURE_UNREADABLE, fail-closed) and keeps the readable ones', async () => {
    const dir = tempDir('etl-capture-denied-');
    const readable = writeCapture(dir, 'a.ndjson', CLI_CAPTURE);
    const locked = writeCapture(dir, 'b.ndjson', CLI_CAPTURE);
    denied.clear();
    denied.set(locked, 'EACCES');
    const { sources, diagnostics } = await discover([dir]);
    expect(sources).toEqual([readable]);
    expect(diagnostics.map((d) => [d.code, d.details])).toEqual([
      ['CAPTURE_UNREADABLE', { errorCode: 'EACCES', outcome: 'fatal', failClosed: true }],
    ]);
  });

  it('refuses a folder it cannot list, without reading below it', async () => {
    const dir = tempDir('etl-capture-denied-');
    const readable = writeCapture(dir, 'a.ndjson', CLI_CAPTURE);
    const locked = join(dir, 'locked');
    mkdirSync(locked);
    writeCapture(locked, 'b.ndjson', CLI_CAPTURE);
    denied.clear();
    denied.set(locked, 'EACCES');
    const { sources, diagnostics } = await discover([dir]);
    expect(sources).toEqual([readable]);
    expect(diagnostics.map((d) => d.code)).toEqual(['CAPTURE_UNREADABLE']);
  });
});
