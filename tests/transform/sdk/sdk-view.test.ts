/**
 * The SDK agent store fixture corpus (cursor-formats §9.3) read in process (Store and SDK adapters →
 * resolveSession), compared with the same Store root without its `sdk-agent-store` trees.
 */
import { describe, expect, it } from 'vitest';
import { PLAIN_TRANSCRIPT, SDK_AGENTS, writeSdkStoreCorpus } from '../../../fixtures/sdk/sdk-store-corpus.js';
import { resolveReadLimits } from '../../../src/extract/limits/read-limits.js';
import { createReadContext } from '../../../src/extract/read-context.js';
import { SdkStoreAdapter } from '../../../src/extract/sdk/sdk-adapter.js';
import type { Contribution, SourceAdapter } from '../../../src/extract/source-adapter.js';
import { StoreAdapter } from '../../../src/extract/store/store-adapter.js';
import type { Diagnostic } from '../../../src/shared/diagnostic.js';
import { PrivateTempDir } from '../../../src/shared/temp/private-temp-dir.js';
import type { NormalizedSession } from '../../../src/transform/normalized-session.js';
import { resolveSession } from '../../../src/transform/resolve-session.js';
import { SessionUnavailable } from '../../../src/transform/session-unavailable.js';
import { tempDir } from '../../helpers/run-cli.js';

async function sessions(
  withoutSdk: boolean,
  limits: Record<string, number> = {},
): Promise<{ sessions: Map<string, NormalizedSession>; run: Diagnostic[]; unavailable: string[] }> {
  const { storeRoot } = writeSdkStoreCorpus(tempDir(), { withoutSdk });
  const temp = PrivateTempDir.create();
  const ctx = createReadContext({
    limits: resolveReadLimits(limits),
    temp,
    includeCrossWorkspaceSources: false,
  });
  const adapters: SourceAdapter[] = [new StoreAdapter(), new SdkStoreAdapter()];
  const groups = new Map<string, Contribution[]>();
  try {
    const roots = {
      cursorUserDir: null,
      cursorStoreRoot: storeRoot,
      inputs: [],
      backups: [],
      carrier: 'custom' as const,
    };
    for (const adapter of adapters)
      for (const source of await adapter.discover(roots, ctx))
        for await (const occurrence of adapter.catalog(source, ctx)) {
          const c = await adapter.hydrate(occurrence, ctx);
          groups.set(occurrence.sessionId, [...(groups.get(occurrence.sessionId) ?? []), c]);
        }
    const out = new Map<string, NormalizedSession>();
    const unavailable: string[] = [];
    for (const [id, group] of groups) {
      try {
        out.set(id, resolveSession(group, { preferredSource: 'composer' }));
      } catch (error) {
        if (!(error instanceof SessionUnavailable)) throw error;
        unavailable.push(id);
      }
    }
    return { sessions: out, run: ctx.diagnostics!.items, unavailable };
  } finally {
    for (const adapter of adapters) adapter.close();
    temp.dispose();
  }
}

const ids = (s: NormalizedSession | undefined) => ({
  messages: s?.messages.map((m) => [m.message_id, m.identity_origin]),
  tools: s?.toolCalls.map((t) => [t.message_id, t.tool_ordinal, t.tool_id]),
});
const ext = (value: string | null) => JSON.parse(value ?? 'null');

describe('SDK agent store sessions', () => {
  it('identity v1 of every Store message and tool is unchanged by the SDK store; SDK-only agents add sessions', async () => {
    const bare = await sessions(true);
    const rich = await sessions(false);
    expect([...bare.sessions.keys()].sort()).toEqual([PLAIN_TRANSCRIPT, SDK_AGENTS.withTranscript].sort());
    expect([...rich.sessions.keys()].sort()).toEqual([PLAIN_TRANSCRIPT, ...Object.values(SDK_AGENTS)].sort());
    const plain = (r: typeof bare) => {
      const s = r.sessions.get(PLAIN_TRANSCRIPT)!;
      return { digest: s.session.view_digest, messages: s.messages, tools: s.toolCalls };
    };
    expect(plain(rich)).toEqual(plain(bare));
    const before = ids(bare.sessions.get(SDK_AGENTS.withTranscript));
    const after = ids(rich.sessions.get(SDK_AGENTS.withTranscript));
    expect(after.messages).toEqual(before.messages);
    // Transcript calls keep their IDs; the SDK call no transcript line holds is appended.
    expect(after.tools!.slice(0, before.tools!.length)).toEqual(before.tools);
    expect(after.tools).toHaveLength(before.tools!.length + 1);
  });

  it('a transcript turn gains its run: model, timing, usage, tool results (last non-empty args, terminal result)', async () => {
    const s = (await sessions(false)).sessions.get(SDK_AGENTS.withTranscript)!;
    expect(s.session).toMatchObject({
      workspace_path: '/home/u/app',
      title: 'fix-tests',
      resolved_source: 'store-transcript',
      total_input_tokens: 1200,
      total_output_tokens: 200,
    });
    expect(s.messages.map((m) => [m.role, m.model, m.input_tokens, m.output_tokens])).toEqual([
      ['user', null, null, null],
      ['assistant', 'composer-2.5', null, null],
      ['assistant', 'composer-2.5', 900, 120],
      ['user', null, null, null],
      ['assistant', 'gpt-5.2', 300, 80],
    ]);
    expect(s.messages[0]!.timestamp_source).toBe('store-turn-timing');
    expect(s.messages[0]!.timestamp).toBe(Date.parse('2026-07-01T10:00:01.000Z'));
    const run1 = ext(s.messages[0]!.extensions).sdk;
    expect(run1).toMatchObject({
      runId: 'run-0001',
      model: 'composer-2.5',
      requestId: 'req-0001',
      durationMs: 39_000,
      eventTypes: { thinking: 1, assistant: 1 },
    });
    expect(run1.usage).toEqual({
      inputTokens: 900,
      outputTokens: 120,
      cacheReadTokens: 4000,
      cacheWriteTokens: 0,
      totalTokens: 5020,
    });
    expect(s.toolCalls.map((t) => [t.name, t.status, t.result, t.error, t.native_call_id])).toEqual([
      ['Shell', 'completed', '{"exitCode":0,"stderr":"","stdout":"12 passed"}', null, 'toolu_a'],
      ['Read', 'running', null, null, 'call_2'],
      ['Edit', 'error', null, 'patch failed', 'call_3'],
      ['shell', 'completed', 'lint ok', null, 'call_4'],
    ]);
    expect(ext(s.toolCalls[0]!.extensions).sdk).toMatchObject({
      callId: 'call_1',
      args: { command: 'npm test' },
      durationMs: 25_000,
      resultStatus: 'success',
    });
    expect(JSON.stringify(s)).not.toContain('THINKING-MARKER');
    expect(s.sourceInstances.map((i) => [i.representation, i.state]).sort()).toEqual([
      ['sdk-agent-store', 'contributed'],
      ['store-transcript', 'contributed'],
    ]);
    expect(ext(s.session.extensions).sdk).toMatchObject({
      runs: 2,
      toolCalls: 4,
      pairedTurns: 2,
      schema: 'runs-with-usage',
      usage: { inputTokens: 1200, outputTokens: 200, reasoningTokens: 20 },
    });
  });

  it('an agent only the older-schema index.db holds is one partial session of run messages with sdk:v1 IDs', async () => {
    const s = (await sessions(false)).sessions.get(SDK_AGENTS.sdkOnly)!;
    expect(s.session).toMatchObject({
      resolved_source: 'sdk-agent-store',
      fidelity: 'partial',
      workspace_path: '/home/u/other',
      title: 'background-job',
      created_at_source: 'sdk-agent-metadata',
    });
    expect(ext(s.session.reason_codes)).toEqual(['sdk-transcript-missing']);
    expect(
      s.messages.map((m) => [
        m.message_id,
        m.identity_origin,
        m.origin,
        m.role,
        m.content,
        m.model,
        m.input_tokens,
      ]),
    ).toEqual([['sdk:v1:run:run-b1', 'sdk-v1', 'sdk', 'assistant', 'Done.', 'composer-2.5', null]]);
    expect(
      s.toolCalls.map((t) => [t.name, t.status, t.files, t.tool_id.startsWith('tool:v1:sdk:v1:run:run-b1:')]),
    ).toEqual([['write', 'completed', '["out.txt"]', true]]);
    expect(ext(s.session.extensions).sdk).toMatchObject({ schema: 'runs-without-usage', usage: null });
    expect(s.rowProvenance.map((p) => p.locator)).toEqual([
      'sdk:run:run-b1',
      expect.stringMatching(/^sdk:run_event:\d+$/),
    ]);
  });

  it('wrongly typed cells are unknown with typed diagnostics, never defaults', async () => {
    const { sessions: all } = await sessions(false);
    const s = all.get(SDK_AGENTS.hostile)!;
    expect(s.messages.map((m) => [m.content, m.model, m.input_tokens, m.output_tokens])).toEqual([
      ['Hostile run.', null, null, 7],
    ]);
    expect(s.toolCalls.map((t) => [t.name, t.params, t.status])).toEqual([['shell', null, 'completed']]);
    expect(s.session.title).toBeNull();
    const codes = s.diagnostics.map((d) => [
      d.code,
      d.details.table ?? null,
      d.details.field,
      d.details.reason,
      d.details.count,
    ]);
    expect(codes).toEqual(
      expect.arrayContaining([
        ['SDK_FIELD_INVALID', 'agents', 'name', 'wrong-type', 1],
        ['SDK_FIELD_INVALID', 'runs', 'model', 'wrong-type', 1],
        ['SDK_FIELD_INVALID', 'runs', 'turn_number', 'wrong-type', 1],
        ['SDK_FIELD_INVALID', 'runs', 'usage_json.inputTokens', 'wrong-type', 1],
        ['SDK_FIELD_INVALID', 'run_events', 'payload_json', 'malformed-json', 1],
        ['SDK_FIELD_INVALID', 'run_events', 'payload_json', 'wrong-type', 1],
        ['SDK_FIELD_INVALID', 'run_events', 'payload_json.message', 'wrong-type', 1],
        ['SDK_FIELD_INVALID', 'run_events', 'payload_json.message.args', 'wrong-type', 1],
        ['TIME_VALUE_UNKNOWN', null, 'sdk.agents.created_at', 'not-a-time', 1],
        ['TIME_VALUE_UNKNOWN', null, 'sdk.runs.started_at', 'not-a-time', 1],
      ]),
    );
  });

  it('an agent whose SDK rows cross a read limit keeps its transcript view, partial and reported', async () => {
    const bare = (await sessions(true)).sessions.get(SDK_AGENTS.withTranscript)!;
    const limited = await sessions(false, { sqliteValueBytes: 200, sqlitePageBytes: 200 });
    // No transcript stands in for the SDK-only agent: no safe contributor, the session is not loaded.
    expect(limited.unavailable).toEqual([SDK_AGENTS.sdkOnly]);
    const s = limited.sessions.get(SDK_AGENTS.withTranscript)!;
    expect(s.messages).toEqual(bare.messages);
    expect(s.session).toMatchObject({ fidelity: 'partial', resolved_source: 'store-transcript' });
    expect(ext(s.session.reason_codes)).toContain('sdk-store-unavailable');
    expect(s.sourceInstances.map((i) => [i.representation, i.state, i.reason_code]).sort()).toEqual([
      ['sdk-agent-store', 'failed', 'source-unavailable'],
      ['store-transcript', 'contributed', null],
    ]);
    expect(s.diagnostics.map((d) => d.code)).toContain('SOURCE_LIMIT_EXCEEDED');
  });
});
