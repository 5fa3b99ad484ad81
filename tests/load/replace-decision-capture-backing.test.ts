import { describe, expect, it } from 'vitest';
import type { SourceInstanceRow } from '../../schemas/tables.js';
import { isCaptureBacked } from '../../src/load/carrier-provenance.js';
import { decideLoad } from '../../src/load/replace-decision.js';

const capture = {
  viewDigest: 'c',
  fidelity: 'complete',
  resolutionState: 'complete',
  captureBacked: true,
} as const;

function instance(
  role: SourceInstanceRow['source_role'],
  state: SourceInstanceRow['state'],
): SourceInstanceRow {
  return {
    session_id: 's',
    instance_ordinal: 0,
    source_role: role,
    representation: role === 'cli' ? 'cli-stream' : 'composer-global',
    state,
    occurrence_ref: `occ:${role}`,
    carrier: role === 'cli' ? 'capture' : 'live',
    workspace_path: null,
    reason_code: null,
    origin: null,
  };
}

describe('capture backing rule: the outcome does not depend on which sources a run includes', () => {
  it('a capture never replaces a complete session backed by Cursor data', () => {
    expect(decideLoad({ viewDigest: 'a', fidelity: 'complete', cursorBacked: true }, capture)).toBe(
      'keep-cursor-data',
    );
  });

  it('a complete capture replaces a partial Cursor-backed session or a capture-backed one (complete beats partial)', () => {
    expect(decideLoad({ viewDigest: 'a', fidelity: 'partial', cursorBacked: true }, capture)).toBe('replace');
    expect(decideLoad({ viewDigest: 'a', fidelity: 'complete', cursorBacked: false }, capture)).toBe(
      'replace',
    );
  });

  it('Cursor data replaces a session a capture backs', () => {
    const cursor = {
      viewDigest: 'd',
      fidelity: 'complete',
      resolutionState: 'complete',
      captureBacked: false,
    } as const;
    expect(decideLoad({ viewDigest: 'c', fidelity: 'complete', cursorBacked: false }, cursor)).toBe(
      'replace',
    );
  });

  it('only data-supplying instances count: a set-aside Cursor instance does not make a view Cursor-backed', () => {
    expect(isCaptureBacked([instance('cli', 'contributed')])).toBe(true);
    expect(isCaptureBacked([instance('cli', 'contributed'), instance('composer', 'superseded')])).toBe(true);
    expect(isCaptureBacked([instance('composer', 'contributed'), instance('cli', 'superseded')])).toBe(false);
    expect(isCaptureBacked([instance('cli', 'failed')])).toBe(false);
  });
});
