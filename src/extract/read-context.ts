/** Builds the ReadContext every run-like command hands to the source adapters. */
import { DiagnosticSink } from '../shared/diagnostic.js';
import type { PrivateTempDir } from '../shared/temp/private-temp-dir.js';
import type { ReadLimits } from './limits/read-limits.js';
import { ReadCounters } from './read-counters.js';
import type { ReadContext } from './source-adapter.js';

export interface ReadContextOptions {
  limits: ReadLimits;
  temp: PrivateTempDir;
  includeCrossWorkspaceSources: boolean;
  workspace?: string | null;
  signal?: AbortSignal;
}

export function createReadContext(options: ReadContextOptions): ReadContext {
  return {
    limits: options.limits,
    temp: options.temp,
    counters: new ReadCounters(),
    scope: null,
    requestedWorkspace: options.workspace ?? null,
    includeCrossWorkspaceSources: options.includeCrossWorkspaceSources,
    signal: options.signal ?? new AbortController().signal,
    diagnostics: new DiagnosticSink(),
    unreadSources: new Map(),
  };
}
