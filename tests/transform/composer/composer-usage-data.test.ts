import { describe, expect, it } from 'vitest';
import { composerUsageData } from '../../../src/transform/composer/composer-usage-data.js';
import { decodedContributions } from '../../../src/transform/resolve/resolve-for-load.js';
import { resolveSession } from '../../../src/transform/resolve-session.js';
import { sampleContributions } from '../../helpers/sample-sessions.js';

const OLDER_SHAPE = { 'claude-4-sonnet': { costInCents: 12, amount: 3 } };

/** The sample sessions with `composerData.usageData` set to `value` (removed when undefined). */
async function sampleWithUsageData(value: unknown) {
  return (await sampleContributions()).map((hydrated) => {
    const contributions = decodedContributions(hydrated);
    for (const contribution of contributions) {
      const doc = (contribution.data as { composerData?: Record<string, unknown> | null }).composerData;
      if (doc === undefined || doc === null) continue;
      if (value === undefined) delete doc.usageData;
      else doc.usageData = value;
    }
    return resolveSession(contributions, { preferredSource: 'composer' });
  });
}

const unread = (sessions: Awaited<ReturnType<typeof sampleWithUsageData>>) =>
  sessions.flatMap((s) => s.diagnostics).filter((d) => d.code === 'USAGE_DATA_UNREAD');

describe('Composer usageData: `{}` on current builds, an older per-model shape unconfirmed', () => {
  it('`{}` (as 2026 builds write it) is nothing: no extension, no diagnostic, the same rows as absent', async () => {
    const empty = await sampleWithUsageData({});
    const absent = await sampleWithUsageData(undefined);
    expect(unread(empty)).toEqual([]);
    expect(empty.map((s) => s.session.extensions)).toEqual(absent.map((s) => s.session.extensions));
    expect(empty.map((s) => s.session.view_digest)).toEqual(absent.map((s) => s.session.view_digest));
  });

  it('a non-empty value is kept raw in the session extensions, reported, and never becomes usage or cost', async () => {
    const older = await sampleWithUsageData(OLDER_SHAPE);
    const empty = await sampleWithUsageData({});
    const composer = older.filter((s) => s.session.extensions?.includes('usageData') === true);
    expect(composer.length).toBeGreaterThan(0);
    for (const s of composer) expect(JSON.parse(s.session.extensions!).usageData).toEqual(OLDER_SHAPE);
    expect(older.map((s) => s.usage)).toEqual(empty.map((s) => s.usage));
    const found = unread(older);
    expect(found).toHaveLength(composer.length);
    expect(found.map((d) => [d.severity, d.details])).toEqual(
      composer.map(() => ['warning', { shape: 'object', members: 1 }]),
    );
    // The details hold the shape only: no model name, no amount.
    expect(JSON.stringify(found)).not.toContain('claude-4-sonnet');
  });

  it('an array or a scalar is kept and reported by its kind', () => {
    expect(composerUsageData([1, 2], 's').diagnostics[0]!.details).toEqual({ shape: 'array', members: 2 });
    expect(composerUsageData('x', 's')).toMatchObject({
      extensions: { usageData: 'x' },
      diagnostics: [{ code: 'USAGE_DATA_UNREAD', details: { shape: 'scalar', members: 0 } }],
    });
    expect(composerUsageData(null, 's')).toEqual({ extensions: null, diagnostics: [] });
  });
});
