/**
 * One Store contribution → a single-occurrence SessionView: the DB tree, a transcript, or the
 * metadata alone. Store messages have no direct times (session-fallback/unknown); session times
 * come from DB metadata, then meta.json, then the epoch (cursor-formats §2.7 step 5).
 */
import type {
  StoreContribution,
  StoreDbContribution,
  StoreSessionFacts,
  StoreTranscriptContribution,
} from '../../extract/store/store-contribution.js';
import { evidence, type SubagentEvidence } from '../../extract/subagent/subagent-evidence.js';
import { type Diagnostic, diagnostic } from '../../shared/diagnostic.js';
import type { Code, DetailsOf } from '../../shared/diagnostic-catalogue.js';
import type { TimeProblem } from '../../shared/time/read-instant.js';
import {
  type InstanceState,
  linkedMessage,
  type SessionTime,
  type SessionView,
  type ViewMessage,
  type ViewSourceInstance,
} from '../session-view.js';
import { timeDiagnostics } from '../time-diagnostics.js';
import { storeDbMessages } from './store-db-messages.js';
import { type TranscriptState, transcriptMessages } from './transcript-messages.js';

export interface StoreRepresentationView {
  view: SessionView;
  /** True when this representation carries conversation messages. */
  usable: boolean;
  transcriptState: TranscriptState | null;
}

export function storeInstance(
  c: StoreContribution,
  state: InstanceState,
  reasonCode: string | null,
): ViewSourceInstance {
  return {
    sourceRole: 'store',
    representation: c.occurrence.representation,
    state,
    occurrenceRef: c.occurrence.occurrenceRef,
    carrier: c.occurrence.carrier,
    workspacePath: c.occurrence.workspacePath,
    reasonCode,
  };
}

function sessionTimes(facts: StoreSessionFacts, dbCreated: number | null) {
  const meta = facts.meta;
  const at = (ms: number | null | undefined, source: SessionTime['source']): SessionTime | null =>
    ms === null || ms === undefined ? null : { ms, source };
  return {
    createdAt: at(dbCreated, 'store-db-metadata') ?? at(meta?.createdAtMs, 'store-meta'),
    updatedAt:
      at(meta?.updatedAtMs, 'store-meta') ??
      at(dbCreated, 'store-db-metadata') ??
      at(meta?.createdAtMs, 'store-meta'),
  };
}

/** Chains each active message to the previous active one, unless the source gave a relationship. */
function linkParents(messages: ViewMessage[]): ViewMessage[] {
  let previous: string | null = null;
  return messages.map((m) => {
    const linked = m.onActiveBranch && m.parentMessageId === null ? linkedMessage(m, true, previous) : m;
    if (m.onActiveBranch) previous = m.messageId;
    return linked;
  });
}

/** The transcript's `subagents/` location and the store.db meta `subagentInfo`. */
function storeEvidence(c: StoreContribution): SubagentEvidence[] {
  const parent = c.data.facts.parentSessionId;
  const found = [
    c.kind === 'store-db' ? (c.data.subagent ?? null) : null,
    evidence('store-transcript', {
      parentSessionId: parent,
      rootSessionId: null,
      spawnToolCallId: null,
      subagentType: null,
    }),
  ];
  return found.filter((e): e is SubagentEvidence => e !== null);
}

export function baseStoreView(
  c: StoreContribution,
  dbTitle: string | null,
  dbCreated: number | null,
  dbTimeProblems: readonly TimeProblem[] = [],
): SessionView {
  const facts = c.data.facts;
  const timeProblems = [...dbTimeProblems, ...(facts.meta?.timeProblems ?? [])];
  return {
    sessionId: c.occurrence.sessionId,
    title: dbTitle ?? facts.meta?.title ?? null,
    workspacePath: c.occurrence.workspacePath,
    resolvedSource: 'store-metadata',
    preferredSource: null,
    fidelity: 'complete',
    resolutionState: 'complete',
    reasonCodes: [],
    ...sessionTimes(facts, dbCreated),
    transcriptState: null,
    contextTokensUsed: null,
    contextTokenLimit: null,
    parentSessionId: facts.parentSessionId,
    subagentEvidence: storeEvidence(c),
    messages: [],
    instances: [],
    diagnostics: [...c.diagnostics, ...timeDiagnostics(timeProblems, c.occurrence.sessionId)],
    sourceKeys: [c.occurrence.sourceKey],
    extensions: null,
  };
}

function problemDiagnostic<C extends 'STORE_DB_PARTIAL' | 'STORE_TRANSCRIPT_PARTIAL'>(
  c: StoreContribution,
  code: C,
  message: string,
  details: DetailsOf<C>,
): Diagnostic {
  return diagnostic<Code>(code, message, details, {
    sessionId: c.occurrence.sessionId,
    sourceRef: c.occurrence.occurrenceRef,
  });
}

/** A representation that was read: partial when any problem was found. */
function contributedView(
  base: SessionView,
  c: StoreContribution,
  resolvedSource: 'store-db' | 'store-transcript',
  messages: ViewMessage[],
  partial: boolean,
  notes: Diagnostic[],
): SessionView {
  return {
    ...base,
    resolvedSource,
    fidelity: partial ? 'partial' : 'complete',
    resolutionState: partial ? 'partial' : 'complete',
    reasonCodes: partial ? ['source-partial'] : [],
    messages: linkParents(messages),
    instances: [storeInstance(c, 'contributed', partial ? 'source-partial' : null)],
    diagnostics: [...base.diagnostics, ...notes],
  };
}

function dbView(c: StoreDbContribution): StoreRepresentationView {
  const base = baseStoreView(c, c.data.title, c.data.createdAtMs, c.data.timeProblems);
  if (c.data.status === 'failed') {
    return {
      view: { ...base, instances: [storeInstance(c, 'failed', 'source-read-failed')] },
      usable: false,
      transcriptState: null,
    };
  }
  const { messages, problems } = storeDbMessages(c.data.leaves, c.occurrence);
  for (const problem of c.data.treeProblems) problems[problem] = (problems[problem] ?? 0) + 1;
  const partial = Object.keys(problems).length > 0;
  const notes = partial
    ? [
        problemDiagnostic(c, 'STORE_DB_PARTIAL', 'A store.db conversation could not be read completely', {
          problems,
        }),
      ]
    : [];
  const view = {
    ...contributedView(base, c, 'store-db', messages, partial, notes),
    storeLastUsedModel: c.data.lastUsedModel ?? null,
  };
  return { view, usable: messages.length > 0, transcriptState: null };
}

function transcriptView(c: StoreTranscriptContribution): StoreRepresentationView {
  const base = baseStoreView(c, null, null);
  const { messages, state, counts } = transcriptMessages(c.data, c.occurrence);
  const partial = state !== 'parsed';
  const notes =
    partial && messages.length > 0
      ? [
          problemDiagnostic(
            c,
            'STORE_TRANSCRIPT_PARTIAL',
            'An agent transcript has lines that are not messages',
            { state, ...counts },
          ),
        ]
      : [];
  const view = {
    ...contributedView(base, c, 'store-transcript', messages, partial, notes),
    transcriptState: state,
  };
  return { view, usable: messages.length > 0, transcriptState: state };
}

export function storeRepresentationView(c: StoreContribution): StoreRepresentationView {
  if (c.kind === 'store-db') return dbView(c);
  if (c.kind === 'store-transcript') return transcriptView(c);
  return {
    view: { ...baseStoreView(c, null, null), instances: [storeInstance(c, 'contributed', null)] },
    usable: false,
    transcriptState: null,
  };
}
