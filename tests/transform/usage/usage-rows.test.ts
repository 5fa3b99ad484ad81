import { describe, expect, it } from 'vitest';
import { writeCapture } from '../../../fixtures/capture/write-capture.js';
import { cliRunWithUsage, cloudRunWithUsage } from '../../../fixtures/usage/usage-captures.js';
import type { MessageRow } from '../../../schemas/tables.js';
import type { NormalizedSession } from '../../../src/transform/normalized-session.js';
import { decodedContributions } from '../../../src/transform/resolve/resolve-for-load.js';
import { resolveSession } from '../../../src/transform/resolve-session.js';
import {
  absentMessageFacts,
  type SessionView,
  type ViewMessage,
} from '../../../src/transform/session-view.js';
import { usageRows } from '../../../src/transform/usage/usage-rows.js';
import { computeViewDigest } from '../../../src/transform/view-digest.js';
import { onlySession, readCaptures } from '../../helpers/capture-sessions.js';
import { tempDir } from '../../helpers/run-cli.js';
import { sampleContributions } from '../../helpers/sample-sessions.js';

const read = async (content: string) =>
  onlySession(await readCaptures([writeCapture(tempDir(), 'run.ndjson', content)]));

const tokens = (row: Record<string, unknown>) => ({
  input: row.input_tokens,
  output: row.output_tokens,
  cacheRead: row.cache_read_tokens,
  cacheWrite: row.cache_write_tokens,
  reasoning: row.reasoning_tokens,
});

describe('usage rows of CLI stream-json captures (`result.usage`)', () => {
  it('one request-level row: measured counts, request ID, model, the last message time', async () => {
    const s = await read(
      cliRunWithUsage('sess-usage-c1', { inputTokens: 1200, outputTokens: 80, cacheReadTokens: 0 }),
    );
    expect(s.usage).toHaveLength(1);
    const [row] = s.usage;
    expect(row).toMatchObject({
      session_id: 'sess-usage-c1',
      message_id: null,
      usage_ordinal: 0,
      request_id: 'req-9f01',
      model: 'Example Model',
      mode: null,
      measurement: 'measured',
      representation: 'cli-stream',
    });
    // A zero beside real counts is a measured zero.
    expect(tokens(row!)).toEqual({
      input: 1200,
      output: 80,
      cacheRead: 0,
      cacheWrite: null,
      reasoning: null,
    });
    const last = s.messages.at(-1)!;
    expect([row!.timestamp, row!.timestamp_source]).toEqual([last.timestamp, last.timestamp_source]);
    expect(s.diagnostics.filter((d) => d.code === 'USAGE_FIELD_INVALID')).toEqual([]);
  });

  it('an all-zero record means "not recorded": no row, never zeros', async () => {
    const s = await read(cliRunWithUsage('sess-usage-c2', { inputTokens: 0, outputTokens: 0 }));
    expect(s.usage).toEqual([]);
  });

  it('"auto"/"default" is a mode, never a model', async () => {
    for (const sentinel of ['auto', 'default']) {
      const s = await read(cliRunWithUsage(`sess-usage-${sentinel}`, { input_tokens: 5 }, sentinel));
      expect(s.usage.map((r) => [r.model, r.mode, r.input_tokens])).toEqual([[null, 'auto', 5]]);
    }
  });

  it('hostile counts are NULL with a typed diagnostic; the well-typed ones are kept', async () => {
    const s = await read(
      cliRunWithUsage('sess-usage-c3', { inputTokens: 'many', outputTokens: -4, cacheWriteTokens: 9 }),
    );
    expect(s.usage.map(tokens)).toEqual([
      { input: null, output: null, cacheRead: null, cacheWrite: 9, reasoning: null },
    ]);
    const found = s.diagnostics.filter((d) => d.code === 'USAGE_FIELD_INVALID');
    expect(found.map((d) => [d.details.representation, d.details.field, d.details.count])).toEqual([
      ['cli-stream', 'inputTokens', 1],
      ['cli-stream', 'outputTokens', 1],
    ]);
    expect(JSON.stringify(found)).not.toContain('many');
  });

  it('a usage value that is not an object is unknown and reported', async () => {
    const s = await read(cliRunWithUsage('sess-usage-c4', 'lots'));
    expect(s.usage).toEqual([]);
    expect(s.diagnostics.filter((d) => d.code === 'USAGE_FIELD_INVALID').map((d) => d.details.field)).toEqual(
      ['usage'],
    );
  });
});

describe('usage rows of Cloud Agents captures (run `usage`)', () => {
  it('one row per run with usage, on the run message', async () => {
    const s = await read(
      cloudRunWithUsage('bc-usage-0001', 'run-usage-0001', {
        inputTokens: 300,
        outputTokens: 40,
        cacheReadTokens: 1000,
        cacheWriteTokens: 12,
        totalTokens: 1352,
      }),
    );
    expect(s.usage).toHaveLength(1);
    expect(s.usage[0]).toMatchObject({
      message_id: 'run-usage-0001',
      representation: 'cloud-capture',
      measurement: 'measured',
    });
    expect(tokens(s.usage[0]!)).toEqual({
      input: 300,
      output: 40,
      cacheRead: 1000,
      cacheWrite: 12,
      reasoning: null,
    });
  });
});

describe('usage and the view digest', () => {
  it('a session without usage rows hashes as it did before the usage table', async () => {
    const s = await read(cliRunWithUsage('sess-usage-c5', { inputTokens: 0 }));
    expect(s.usage).toEqual([]);
    const { session, messages, toolCalls, sourceInstances } = s;
    expect(computeViewDigest({ session, messages, toolCalls, sourceInstances })).toBe(session.view_digest);
  });

  it('usage rows are part of the digest of a session that has them', async () => {
    const s = await read(cliRunWithUsage('sess-usage-c6', { inputTokens: 7 }));
    const { session, messages, toolCalls, sourceInstances, usage } = s;
    expect(computeViewDigest({ session, messages, toolCalls, sourceInstances, usage })).toBe(
      session.view_digest,
    );
    expect(computeViewDigest({ session, messages, toolCalls, sourceInstances })).not.toBe(
      session.view_digest,
    );
  });
});

/** The sample sessions with the `composerData` mode fields replaced (absent keys removed). */
async function sampleWithModes(modes: Record<string, unknown>): Promise<NormalizedSession[]> {
  return (await sampleContributions()).map((hydrated) => {
    const contributions = decodedContributions(hydrated);
    for (const contribution of contributions) {
      const doc = (contribution.data as { composerData?: Record<string, unknown> | null }).composerData;
      if (doc === undefined || doc === null) continue;
      delete doc.unifiedMode;
      delete doc.forceMode;
      Object.assign(doc, modes);
    }
    return resolveSession(contributions, { preferredSource: 'composer' });
  });
}

const composerModes = (sessions: NormalizedSession[]) =>
  [...new Set(sessions.flatMap((s) => s.usage.map((r) => `${r.representation}:${r.mode}`)))].sort();

const modeDiagnostics = (sessions: NormalizedSession[]) =>
  sessions
    .flatMap((s) => s.diagnostics)
    .filter((d) => d.code === 'USAGE_FIELD_INVALID')
    .map((d) => [d.details.representation, d.details.field, d.details.count]);

describe('usage mode of Composer sessions (composerData `unifiedMode`, else `forceMode`)', () => {
  it('the string mode goes onto every Composer usage row as stored', async () => {
    const sessions = await sampleWithModes({ unifiedMode: 'Plan', forceMode: 'edit' });
    expect(sessions.flatMap((s) => s.usage).length).toBeGreaterThan(0);
    expect(composerModes(sessions)).toEqual(['composer-global:Plan']);
    expect(modeDiagnostics(sessions)).toEqual([]);
  });

  it('forceMode when unifiedMode is absent or empty; NULL when neither is stored', async () => {
    expect(composerModes(await sampleWithModes({ unifiedMode: ' ', forceMode: 'edit' }))).toEqual([
      'composer-global:edit',
    ]);
    expect(composerModes(await sampleWithModes({}))).toEqual(['composer-global:null']);
  });

  it('a mode that is not a string (an integer included: never mapped) is NULL with a typed diagnostic', async () => {
    const sessions = await sampleWithModes({ unifiedMode: 2, forceMode: 'edit' });
    expect(composerModes(sessions)).toEqual(['composer-global:null']);
    const found = modeDiagnostics(sessions);
    expect(found.length).toBeGreaterThan(0);
    expect(new Set(found.map(String))).toEqual(new Set(['composer-global,unifiedMode,1']));
    expect(modeDiagnostics(await sampleWithModes({ forceMode: { x: 1 } }))[0]).toEqual([
      'composer-global',
      'forceMode',
      1,
    ]);
  });
});

/** A view holding only what `usageRows` reads: messages with tokens and the Store meta model. */
function storeModelView(
  stored: { value: string | null; invalid: boolean } | null,
  measuredModel?: string,
): { view: SessionView; messages: MessageRow[] } {
  const message = {
    ...absentMessageFacts(),
    messageId: 'm1',
    origin: 'both',
    model: measuredModel ?? null,
    inputTokens: measuredModel === undefined ? null : 10,
  } as unknown as ViewMessage;
  const view = {
    sessionId: 'store-session',
    messages: [message],
    instances: [],
    extensions: null,
    storeLastUsedModel: stored,
  } as unknown as SessionView;
  const row = { timestamp: 1_700_000_000_000, timestamp_source: 'direct' } as unknown as MessageRow;
  return { view, messages: [row] };
}

describe('usage row of Store meta `lastUsedModel`', () => {
  it('one derived session-level row with every count NULL and the last message time', () => {
    const { view, messages } = storeModelView({ value: 'gpt-5.2', invalid: false });
    const { rows, diagnostics } = usageRows(view, messages);
    expect(rows).toEqual([
      expect.objectContaining({
        message_id: null,
        request_id: null,
        usage_ordinal: 0,
        model: 'gpt-5.2',
        mode: null,
        measurement: 'derived',
        representation: 'store-metadata',
        timestamp: 1_700_000_000_000,
        timestamp_source: 'direct',
      }),
    ]);
    expect(tokens(rows[0]!)).toEqual({
      input: null,
      output: null,
      cacheRead: null,
      cacheWrite: null,
      reasoning: null,
    });
    expect(diagnostics).toEqual([]);
  });

  it('"default" and "auto" are a mode, never a model', () => {
    for (const sentinel of ['default', 'auto']) {
      const { view, messages } = storeModelView({ value: sentinel, invalid: false });
      expect(usageRows(view, messages).rows).toEqual([
        expect.objectContaining({ model: null, mode: 'auto', measurement: 'derived' }),
      ]);
    }
  });

  it('a merged session whose measured rows name a model gets no derived row (never counted twice)', () => {
    const { view, messages } = storeModelView({ value: 'claude-4.6-sonnet', invalid: false }, 'gpt-5.2');
    const { rows } = usageRows(view, messages);
    expect(rows.map((r) => [r.measurement, r.model])).toEqual([['measured', 'gpt-5.2']]);
  });

  it('a lastUsedModel of the wrong type gives no row and a typed diagnostic; absent gives nothing', () => {
    const invalid = storeModelView({ value: null, invalid: true });
    const result = usageRows(invalid.view, invalid.messages);
    expect(result.rows).toEqual([]);
    expect(result.diagnostics.map((d) => [d.code, d.details])).toEqual([
      ['USAGE_FIELD_INVALID', { representation: 'store-metadata', field: 'lastUsedModel', count: 1 }],
    ]);
    const absent = storeModelView(null);
    expect(usageRows(absent.view, absent.messages)).toEqual({ rows: [], diagnostics: [] });
  });
});
