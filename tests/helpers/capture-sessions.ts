/** Runs capture files through the capture adapter and the resolver, in-process, for unit tests. */
import { CaptureAdapter } from '../../src/extract/capture/capture-adapter.js';
import { DEFAULT_READ_LIMITS, type ReadLimits } from '../../src/extract/limits/read-limits.js';
import { createReadContext } from '../../src/extract/read-context.js';
import type { Contribution } from '../../src/extract/source-adapter.js';
import type { Diagnostic } from '../../src/shared/diagnostic.js';
import { PrivateTempDir } from '../../src/shared/temp/private-temp-dir.js';
import type { NormalizedSession } from '../../src/transform/normalized-session.js';
import { resolveSession } from '../../src/transform/resolve-session.js';

export interface CaptureRead {
  contributions: Contribution[];
  sessions: NormalizedSession[];
  diagnostics: Diagnostic[];
}

export async function readCaptures(
  inputs: string[],
  limits: ReadLimits = DEFAULT_READ_LIMITS,
): Promise<CaptureRead> {
  const adapter = new CaptureAdapter();
  const temp = PrivateTempDir.create();
  const ctx = createReadContext({ limits, temp, includeCrossWorkspaceSources: false });
  try {
    const contributions: Contribution[] = [];
    const roots = {
      cursorUserDir: null,
      cursorStoreRoot: null,
      inputs,
      backups: [],
      carrier: 'capture' as const,
    };
    for (const source of await adapter.discover(roots))
      for await (const occurrence of adapter.catalog(source, ctx))
        contributions.push(await adapter.hydrate(occurrence, ctx));
    const sessions = contributions.map((c) => resolveSession([c], { preferredSource: 'composer' }));
    return { contributions, sessions, diagnostics: adapter.drainDiagnostics() };
  } finally {
    adapter.close();
    temp.dispose();
  }
}

export function onlySession(read: CaptureRead): NormalizedSession {
  if (read.sessions.length !== 1) throw new Error(`expected one session, got ${read.sessions.length}`);
  return read.sessions[0]!;
}

export function extensions(session: NormalizedSession): { capture: Record<string, unknown> } {
  return JSON.parse(session.session.extensions ?? '{}');
}
