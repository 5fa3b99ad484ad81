/**
 * The Composer views of the agentKv fixture corpus, read in process (extract → decode → view),
 * compared with the same sessions without their blobs.
 */
import { describe, expect, it } from 'vitest';
import {
  AGENTKV_SESSIONS,
  CANARY_AUTH_TOKEN,
  CANARY_BLOB_KEY,
  CANARY_SUMMARY_KEY,
  INJECTED_CONTEXT,
  writeAgentKvCorpus,
} from '../../../fixtures/agentkv/agentkv-corpus.js';
import { ComposerAdapter } from '../../../src/extract/composer/composer-adapter.js';
import type { ComposerGlobalBytesContribution } from '../../../src/extract/composer/composer-contribution.js';
import { decodeGlobalSession } from '../../../src/extract/composer/global-session-decode.js';
import { resolveReadLimits } from '../../../src/extract/limits/read-limits.js';
import { createReadContext } from '../../../src/extract/read-context.js';
import type { Diagnostic } from '../../../src/shared/diagnostic.js';
import { PrivateTempDir } from '../../../src/shared/temp/private-temp-dir.js';
import { composerGlobalView } from '../../../src/transform/composer/composer-global-view.js';
import type { SessionView } from '../../../src/transform/session-view.js';
import { tempDir } from '../../helpers/run-cli.js';

async function views(
  withoutAgentKv: boolean,
): Promise<{ views: Map<string, SessionView>; run: Diagnostic[] }> {
  const { userDir } = writeAgentKvCorpus(tempDir(), { withoutAgentKv });
  const temp = PrivateTempDir.create();
  const ctx = createReadContext({ limits: resolveReadLimits({}), temp, includeCrossWorkspaceSources: false });
  const adapter = new ComposerAdapter();
  const out = new Map<string, SessionView>();
  try {
    const roots = {
      cursorUserDir: userDir,
      cursorStoreRoot: null,
      inputs: [],
      backups: [],
      carrier: 'custom' as const,
    };
    for (const source of await adapter.discover(roots, ctx)) {
      for await (const occurrence of adapter.catalog(source, ctx)) {
        const hydrated = (await adapter.hydrate(occurrence, ctx)) as ComposerGlobalBytesContribution;
        out.set(occurrence.sessionId, composerGlobalView(decodeGlobalSession(hydrated)));
      }
    }
    return { views: out, run: adapter.drainDiagnostics() };
  } finally {
    adapter.close();
    temp.dispose();
  }
}

const identities = (view: SessionView | undefined) =>
  view?.messages.map((m) => [m.messageId, m.identityOrigin, m.toolCalls.map((t) => t.toolId)]);

describe('agentKv enrichment of Composer views', () => {
  it('identity v1 and the Composer order are unchanged by the blobs; only agentKv-only text adds a session', async () => {
    const bare = await views(true);
    const rich = await views(false);
    expect([...bare.views.keys()].sort()).toEqual(
      [AGENTKV_SESSIONS.stateLinked, AGENTKV_SESSIONS.requestLinked, AGENTKV_SESSIONS.tombstone].sort(),
    );
    for (const id of bare.views.keys())
      expect(identities(rich.views.get(id))).toEqual(identities(bare.views.get(id)));
    expect(rich.views.get(AGENTKV_SESSIONS.agentKvOnly)?.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Summarize the repo'],
      ['assistant', 'The repo has src, tests and docs.'],
    ]);
    // Each rebuilt message points at its blob's cursorDiskKV key (row_provenance).
    for (const message of rich.views.get(AGENTKV_SESSIONS.agentKvOnly)!.messages)
      expect(
        message.sources.map((s) => [s.representation, s.locator.split(':').slice(0, 4).join(':'), s.chosen]),
      ).toEqual([['composer-agentkv', 'composer:global:agentKv:blob', true]]);
    expect(rich.run.map((d) => [d.code, d.details])).toEqual([
      ['AGENTKV_BLOBS_UNLINKED', { count: 1, jsonBlobs: 10 }],
    ]);
  });

  it('request facts land on the bubble whose requestId opens the request; tool results on the same toolCallId', async () => {
    const { views: rich } = await views(false);
    const session = rich.get(AGENTKV_SESSIONS.stateLinked)!;
    const [user, tool] = session.messages;
    expect(user?.extensions?.agentKv).toMatchObject({ reasoning: ['Need to find foo first.'] });
    expect(tool?.toolCalls[0]?.extensions?.agentKv).toMatchObject({
      isError: true,
      output: { success: { exitCode: 1 } },
    });
    expect(session.instances.map((i) => i.representation)).toEqual(['composer-global', 'composer-agentkv']);
    expect(session.diagnostics.map((d) => d.code).sort()).toEqual([
      'AGENTKV_BLOBS_POSSIBLY_ENCRYPTED',
      'AGENTKV_BLOB_HASH_MISMATCH',
      'AGENTKV_PROTOBUF_UNREAD',
    ]);
    // The turn's protobuf user and step blobs (§1.4a, one source): counted, their text never decoded.
    expect(session.diagnostics.find((d) => d.code === 'AGENTKV_PROTOBUF_UNREAD')?.details).toEqual({
      part: 'turn-content',
      count: 2,
    });
    expect(session.extensions?.agentKv).toMatchObject({ turns: 1, turnContentUnread: 2 });
  });

  it('no view holds an encryption key, an auth token, the system prompt or injected context in message text', async () => {
    const { views: rich } = await views(false);
    const all = JSON.stringify([...rich.values()]);
    for (const secret of [CANARY_BLOB_KEY, CANARY_SUMMARY_KEY, CANARY_AUTH_TOKEN])
      expect(all).not.toContain(secret);
    expect(rich.get(AGENTKV_SESSIONS.stateLinked)?.extensions).toMatchObject({ hadBlobEncryptionKey: true });
    const text = JSON.stringify([...rich.values()].flatMap((v) => v.messages.map((m) => m.content)));
    expect(text).not.toContain('SYSTEM-PROMPT-MARKER');
    expect(text).not.toContain(INJECTED_CONTEXT);
  });
});
