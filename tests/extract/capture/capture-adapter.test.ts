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

  it('refuses a UTF-16 capture as SOURCE_ENCODING_INVALID (fail-closed) and keeps the UTF-8 ones', async () => {
    const dir = tempDir('etl-capture-utf16-');
    const readable = writeCapture(dir, 'a.ndjson', CLI_CAPTURE);
    writeCapture(
      dir,
      'b.ndjson',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(CLI_CAPTURE, 'utf16le')]),
    );
    denied.clear();
    const { sources, diagnostics } = await discover([dir]);
    expect(sources).toEqual([readable]);
    expect(diagnostics.map((d) => [d.code, d.severity, d.details.problem, d.details.failClosed])).toEqual([
      ['SOURCE_ENCODING_INVALID', 'error', 'utf16', true],
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
