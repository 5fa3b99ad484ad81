import { describe, expect, it } from 'vitest';
import type { SourceInstanceRow } from '../../schemas/tables.js';
import { isBackupOnly } from '../../src/load/carrier-provenance.js';
import { decideLoad } from '../../src/load/replace-decision.js';

const liveComplete = { viewDigest: 'a', fidelity: 'complete', liveContributed: true } as const;
const backupComplete = {
  viewDigest: 'b',
  fidelity: 'complete',
  resolutionState: 'complete',
  backupOnly: true,
} as const;

function instance(
  carrier: SourceInstanceRow['carrier'],
  state: SourceInstanceRow['state'],
): SourceInstanceRow {
  return {
    session_id: 's',
    instance_ordinal: 0,
    source_role: 'composer',
    representation: 'composer-global',
    state,
    occurrence_ref: 'occ:x',
    carrier,
    workspace_path: null,
    reason_code: null,
    origin: null,
  };
}

describe('backup carrier replace rule', () => {
  it('a complete backup view never replaces a complete view loaded from a live source', () => {
    expect(decideLoad(liveComplete, backupComplete)).toBe('keep-complete');
  });

  it('--backup-may-replace lets the backup view replace it', () => {
    expect(decideLoad(liveComplete, backupComplete, { backupMayReplace: true })).toBe('replace');
  });

  it('a backup view fills an absent session and replaces a partial or backup-loaded one', () => {
    expect(decideLoad(undefined, backupComplete)).toBe('insert');
    expect(decideLoad({ viewDigest: 'a', fidelity: 'partial', liveContributed: true }, backupComplete)).toBe(
      'replace',
    );
    expect(
      decideLoad({ viewDigest: 'a', fidelity: 'complete', liveContributed: false }, backupComplete),
    ).toBe('replace');
  });

  it('a live view still replaces a complete live view (the rule only guards backups)', () => {
    expect(decideLoad(liveComplete, { ...backupComplete, backupOnly: false })).toBe('replace');
  });

  it('only data-supplying instances decide whether a view is backup-only', () => {
    expect(isBackupOnly([instance('backup', 'contributed'), instance('live', 'omitted-by-scope')])).toBe(
      true,
    );
    expect(isBackupOnly([instance('backup', 'contributed'), instance('live', 'equivalent-replica')])).toBe(
      false,
    );
    expect(isBackupOnly([instance('backup', 'failed')])).toBe(false);
  });
});
