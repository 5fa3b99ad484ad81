import { describe, expect, it } from 'vitest';
import type { SourceInstanceRow } from '../../schemas/tables.js';
import { computeViewDigest } from '../../src/transform/view-digest.js';
import { sampleSessions } from '../helpers/sample-sessions.js';

const relocate = (rows: readonly SourceInstanceRow[], salt: string): SourceInstanceRow[] =>
  rows
    .map((row) => ({
      ...row,
      occurrence_ref: `occ:${salt}${row.occurrence_ref}`,
      carrier: 'custom' as const,
    }))
    .reverse()
    .map((row, i) => ({ ...row, instance_ordinal: i }));

describe('view digest: physical locations are provenance, not content', () => {
  it('occurrence references, carriers and instance order (where the data was read) leave the digest alone', async () => {
    for (const s of await sampleSessions()) {
      const digest = computeViewDigest(s);
      for (const salt of ['moved/', 'C:/restored copy/', '\u00e9/'])
        expect(computeViewDigest({ ...s, sourceInstances: relocate(s.sourceInstances, salt) })).toBe(digest);
      expect(s.session.view_digest).toBe(digest);
    }
  });

  it('what a contributor was and did is content: its state, workspace or reason changes the digest', async () => {
    const [s] = await sampleSessions();
    const digest = computeViewDigest(s!);
    const changed = (patch: Partial<SourceInstanceRow>) =>
      computeViewDigest({ ...s!, sourceInstances: s!.sourceInstances.map((row) => ({ ...row, ...patch })) });
    expect(changed({ state: 'failed' })).not.toBe(digest);
    expect(changed({ workspace_path: '/elsewhere' })).not.toBe(digest);
    expect(changed({ reason_code: 'source-unavailable' })).not.toBe(digest);
    expect(computeViewDigest({ ...s!, sourceInstances: [] })).not.toBe(digest);
  });
});
