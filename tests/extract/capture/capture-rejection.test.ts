import { describe, expect, it } from 'vitest';
import {
  CaptureSchemaUnsupported,
  nothingLoadedError,
  rejectionDiagnostic,
} from '../../../src/extract/capture/capture-rejection.js';
import { diagnostic } from '../../../src/shared/diagnostic.js';
import { EXIT } from '../../../src/shared/errors.js';

describe('a refused capture source fails closed; the run fails only when nothing else loaded', () => {
  const refused = rejectionDiagnostic(new CaptureSchemaUnsupported('cli-stream', '2'), 'src:a');

  it('the refusal is marked by a field of its own, and users still see failClosed in the details', () => {
    expect(refused.failClosed).toBe(true);
    expect(refused).toMatchObject({
      code: 'CAPTURE_SCHEMA_UNSUPPORTED',
      severity: 'error',
      sourceRef: 'src:a',
      details: { surface: 'cli-stream', declared: '2', outcome: 'fatal', failClosed: true },
    });
  });

  it('nothing loaded and a refusal: exit 4 with the refusal code, its details and the refused count', () => {
    const error = nothingLoadedError([refused, refused], 0);
    expect(error?.exitCode).toBe(EXIT.io);
    expect(error?.toJSON()).toMatchObject({
      code: 'CAPTURE_SCHEMA_UNSUPPORTED',
      details: { surface: 'cli-stream', declared: '2', refusedSources: 2 },
    });
    expect(error?.details).not.toHaveProperty('failClosed');
  });

  it('another source loaded, or no refusal at all: no fatal error', () => {
    expect(nothingLoadedError([refused], 1)).toBeNull();
    expect(nothingLoadedError([diagnostic('CAPTURE_INPUT_MISSING', 'missing')], 0)).toBeNull();
  });

  it('control flow reads the field, not the details: a details echo alone refuses nothing', () => {
    const { failClosed: _marker, ...echoOnly } = refused;
    expect(nothingLoadedError([echoOnly], 0)).toBeNull();
  });
});
