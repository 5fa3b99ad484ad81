/**
 * The capture source adapter: explicit `--input` files and folders → sniffed capture surfaces →
 * one occurrence per session (a CLI stream, a Cloud agent, a Markdown chat). Each file is validated
 * in full at catalog time, so a refused source never contributes a row; hydrate re-reads one file.
 */
import { type Diagnostic, diagnostic } from '../../shared/diagnostic.js';
import { fingerprintFile, occurrenceRefFor, sourceKeyFor } from '../fs/source-identity.js';
import type {
  Contribution,
  DiscoveredSource,
  ReadContext,
  SessionOccurrence,
  SourceAdapter,
  SourceRoots,
} from '../source-adapter.js';
import type { CloudAgentCapture } from './capture-contribution.js';
import { CaptureSessionIdMissing, rejectionDiagnostic } from './capture-rejection.js';
import {
  type CaptureWorkspace,
  cliCaptureWorkspace,
  cloudCaptureWorkspace,
  cloudV0Workspace,
} from './capture-workspace.js';
import { readCliCapture } from './cli-stream-reader.js';
import { splitCloudAgents } from './cloud-agents.js';
import { readCloudCaptureFile } from './cloud-capture-reader.js';
import { readCloudV0Conversation } from './cloud-v0-reader.js';
import { readMarkdownDocument } from './markdown/read-markdown.js';
import { type CaptureSurface, sniffSurface } from './sniff-surface.js';
import { readSseTextFile } from './sse-text-reader.js';
import { walkInputs } from './walk-inputs.js';

interface CaptureHandle {
  locator: string;
  surface: CaptureSurface;
}

type Loaded = {
  sessionId: string;
  workspace: CaptureWorkspace;
  contribution: Omit<Contribution, 'occurrence' | 'diagnostics'>;
};

const NO_WORKSPACE: CaptureWorkspace = { workspacePath: null, workspaceMemberships: [] };

export class CaptureAdapter implements SourceAdapter {
  readonly name = 'capture';
  private readonly surfaces = new Map<string, CaptureSurface>();
  private pending: Diagnostic[] = [];
  /** Discovery position of each source: catalog runs concurrently, reports follow input order. */
  private readonly order = new Map<string, number>();

  async discover(roots: SourceRoots, ctx?: ReadContext): Promise<DiscoveredSource[]> {
    const walked = walkInputs(roots.inputs, ctx?.limits.captureInputFiles);
    this.pending.push(...walked.diagnostics);
    const sources: DiscoveredSource[] = [];
    for (const locator of walked.files) {
      const sourceKey = sourceKeyFor('capture-file', locator);
      this.order.set(sourceKey, this.order.size);
      let surface: CaptureSurface | null;
      try {
        surface = sniffSurface(locator);
      } catch (error) {
        // A file that cannot be opened, or is UTF-16, is refused as a failed read is at catalog.
        this.pending.push(rejectionDiagnostic(error, sourceKey));
        continue;
      }
      if (surface === null) {
        this.pending.push(
          diagnostic(
            'CAPTURE_KIND_UNDETECTED',
            'An input file is not a recognised capture; it was skipped',
            {},
            {
              sourceRef: sourceKey,
            },
          ),
        );
        continue;
      }
      this.surfaces.set(locator, surface);
      sources.push({
        sourceKey,
        kind: 'capture-file',
        carrier: 'capture',
        locator,
        fingerprint: fingerprintFile(locator),
      });
    }
    return sources;
  }

  async *catalog(source: DiscoveredSource, ctx: ReadContext): AsyncIterable<SessionOccurrence> {
    const surface = this.surfaces.get(source.locator);
    if (source.kind !== 'capture-file' || surface === undefined) return;
    let loaded: Loaded[];
    try {
      loaded = await this.load(source.locator, surface, ctx, null);
    } catch (error) {
      this.pending.push(rejectionDiagnostic(error, source.sourceKey));
      return;
    }
    for (const { sessionId, workspace } of loaded) {
      const handle: CaptureHandle = { locator: source.locator, surface };
      yield {
        sessionId,
        sourceKey: source.sourceKey,
        representation:
          surface === 'cli-stream'
            ? 'cli-stream'
            : surface.startsWith('cloud')
              ? 'cloud-capture'
              : 'markdown-export',
        carrier: 'capture',
        occurrenceRef: occurrenceRefFor(source.sourceKey, sessionId),
        ...workspace,
        handle,
      };
    }
  }

  async hydrate(occurrence: SessionOccurrence, ctx: ReadContext): Promise<Contribution> {
    const handle = occurrence.handle as CaptureHandle;
    const [loaded] = await this.load(handle.locator, handle.surface, ctx, occurrence.sessionId);
    return { ...loaded!.contribution, occurrence, diagnostics: [] };
  }

  /** Diagnostics about sources that produced no session (skipped, undetected, refused). */
  drainDiagnostics(): Diagnostic[] {
    const position = (item: Diagnostic): number => this.order.get(item.sourceRef ?? '') ?? -1;
    const items = [...this.pending].sort((a, b) => position(a) - position(b));
    this.pending = [];
    return items;
  }

  close(): void {
    this.surfaces.clear();
  }

  private async load(
    locator: string,
    surface: CaptureSurface,
    ctx: ReadContext,
    only: string | null,
  ): Promise<Loaded[]> {
    const { limits, counters } = ctx;
    if (surface === 'cli-stream') {
      const data = await readCliCapture(locator, limits, counters);
      if (data === null) throw new CaptureSessionIdMissing(surface);
      return [
        {
          sessionId: data.sessionId,
          workspace: cliCaptureWorkspace(data),
          contribution: { kind: 'cli-stream', data },
        },
      ];
    }
    if (surface === 'cloud-v0') {
      const data = readCloudV0Conversation(locator, limits, counters);
      const contribution = { kind: 'cloud-v0-conversation', data } as const;
      return [{ sessionId: data.sessionId, workspace: cloudV0Workspace(data), contribution }];
    }
    if (surface === 'export-chat' || surface === 'specstory') {
      const data = readMarkdownDocument(locator, surface, limits, counters);
      return [
        {
          sessionId: data.sessionId,
          workspace: NO_WORKSPACE,
          contribution: { kind: 'markdown-export', data },
        },
      ];
    }
    const file =
      surface === 'cloud-capture'
        ? await readCloudCaptureFile(locator, limits, counters)
        : readSseTextFile(locator, limits, counters);
    const agents: CloudAgentCapture[] = splitCloudAgents(
      file,
      surface === 'cloud-capture' ? 'capture-jsonl' : 'raw-sse',
    );
    if (agents.length === 0) throw new CaptureSessionIdMissing(surface);
    return agents
      .filter((agent) => only === null || agent.sessionId === only)
      .map((data) => ({
        sessionId: data.sessionId,
        workspace: cloudCaptureWorkspace(data),
        contribution: { kind: 'cloud-capture', data },
      }));
  }
}
