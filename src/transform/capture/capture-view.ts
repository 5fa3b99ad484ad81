/** The SessionView skeleton every capture surface shares: one contributing capture instance. */
import type { Contribution } from '../../extract/source-adapter.js';
import type { Diagnostic } from '../../shared/diagnostic.js';
import {
  absentMessageFacts,
  type ResolvedSource,
  type SessionTime,
  type SessionView,
  type ViewMessage,
  type ViewToolCall,
} from '../session-view.js';

export interface CaptureViewParts {
  resolvedSource: Extract<ResolvedSource, 'cli-stream' | 'cloud-agent' | 'markdown-export'>;
  sourceRole: 'cli' | 'cloud' | 'markdown';
  complete: boolean;
  reasonCodes: string[];
  title: string | null;
  createdAt: SessionTime | null;
  updatedAt: SessionTime | null;
  messages: ViewMessage[];
  diagnostics: Diagnostic[];
  extensions: Record<string, unknown>;
}

export function captureView(contribution: Contribution, parts: CaptureViewParts): SessionView {
  const { occurrence } = contribution;
  return {
    sessionId: occurrence.sessionId,
    title: parts.title,
    workspacePath: occurrence.workspacePath,
    resolvedSource: parts.resolvedSource,
    preferredSource: null,
    fidelity: parts.complete ? 'complete' : 'partial',
    resolutionState: parts.complete ? 'complete' : 'partial',
    reasonCodes: parts.reasonCodes,
    createdAt: parts.createdAt,
    updatedAt: parts.updatedAt,
    transcriptState: null,
    contextTokensUsed: null,
    contextTokenLimit: null,
    parentSessionId: null,
    messages: parts.messages,
    instances: [
      {
        sourceRole: parts.sourceRole,
        representation: occurrence.representation,
        state: 'contributed',
        occurrenceRef: occurrence.occurrenceRef,
        carrier: occurrence.carrier,
        workspacePath: occurrence.workspacePath,
        reasonCode: parts.complete ? null : (parts.reasonCodes[0] ?? null),
      },
    ],
    diagnostics: [...contribution.diagnostics, ...parts.diagnostics],
    sourceKeys: [occurrence.sourceKey],
    extensions: parts.extensions,
  };
}

/** A capture message with the fields captures never have set to their empty values. */
export function captureMessage(
  fields: Pick<ViewMessage, 'messageId' | 'identityOrigin' | 'role' | 'content' | 'time' | 'origin'> &
    Pick<ViewMessage, 'sources'> &
    Partial<Pick<ViewMessage, 'thinking' | 'model' | 'durationMs' | 'extensions'>> & {
      toolCalls?: ViewToolCall[];
    },
): ViewMessage {
  return { ...absentMessageFacts(), ...fields };
}

/** Links each message to the previous one (captures are linear conversations). */
export function linkParents(messages: ViewMessage[]): ViewMessage[] {
  return messages.map((message, i) => ({
    ...message,
    parentMessageId: i === 0 ? null : messages[i - 1]!.messageId,
  }));
}
