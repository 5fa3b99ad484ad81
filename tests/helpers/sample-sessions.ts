/** Normalized sessions of the sample corpus, produced in-process by the real adapter and transform. */
import { join } from 'node:path';
import { buildSampleCorpus } from '../../fixtures/sample/sample-corpus.js';
import { ComposerAdapter } from '../../src/extract/composer/composer-adapter.js';
import { resolveReadLimits } from '../../src/extract/limits/read-limits.js';
import { createReadContext } from '../../src/extract/read-context.js';
import type { Contribution, SessionOccurrence } from '../../src/extract/source-adapter.js';
import { PrivateTempDir } from '../../src/shared/temp/private-temp-dir.js';
import { groupOccurrences } from '../../src/sync/session-groups.js';
import type { NormalizedSession } from '../../src/transform/normalized-session.js';
import { decodedContributions } from '../../src/transform/resolve/resolve-for-load.js';
import { resolveSession } from '../../src/transform/resolve-session.js';
import { computeViewDigest } from '../../src/transform/view-digest.js';
import { tempDir } from './run-cli.js';

/** Each sample session's hydrated contributions (global and workspace occurrences together, as in a run). */
export async function sampleContributions(): Promise<Contribution[][]> {
  const { userDir } = buildSampleCorpus(join(tempDir(), 'cursor'));
  const temp = PrivateTempDir.create();
  const ctx = createReadContext({ limits: resolveReadLimits({}), temp, includeCrossWorkspaceSources: false });
  const adapter = new ComposerAdapter();
  const groups: Contribution[][] = [];
  try {
    const entries: { adapter: ComposerAdapter; occurrence: SessionOccurrence }[] = [];
    for (const source of await adapter.discover({
      cursorUserDir: userDir,
      cursorStoreRoot: null,
      inputs: [],
      backups: [],
      carrier: 'custom',
    })) {
      for await (const occurrence of adapter.catalog(source, ctx)) entries.push({ adapter, occurrence });
    }
    for (const group of groupOccurrences(entries)) {
      const contributions = [];
      for (const member of group.members) contributions.push(await adapter.hydrate(member.occurrence, ctx));
      groups.push(contributions);
    }
  } finally {
    adapter.close();
    temp.dispose();
  }
  return groups;
}

export async function sampleSessions(): Promise<NormalizedSession[]> {
  const sessions = (await sampleContributions()).map((contributions) =>
    resolveSession(decodedContributions(contributions), { preferredSource: 'composer' }),
  );
  return sessions.sort((a, b) => (a.session.session_id < b.session.session_id ? -1 : 1));
}

/** A copy of `session` with its first message's content edited and the digest recomputed. */
export function withEditedContent(
  session: NormalizedSession,
  content: string,
  overrides: Partial<NormalizedSession['session']> = {},
): NormalizedSession {
  const messages = session.messages.map((m, i) => (i === 0 ? { ...m, content } : { ...m }));
  const row = { ...session.session, ...overrides };
  const digest = computeViewDigest({
    session: row,
    messages,
    toolCalls: session.toolCalls,
    sourceInstances: session.sourceInstances,
  });
  return { ...session, session: { ...row, view_digest: digest }, messages };
}
