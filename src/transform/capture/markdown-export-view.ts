/**
 * A Markdown chat export (Cursor Export Chat or SpecStory) → SessionView. Complete but lossy: only
 * what the file states (roles, text, SpecStory user stamps, models and tool names); no time, model,
 * tool result or native ID is invented, and what was lost is listed in `extensions.capture.lost`.
 */
import type { MarkdownExportContribution } from '../../extract/capture/capture-contribution.js';
import type { MarkdownDocument } from '../../extract/capture/markdown/markdown-document.js';
import type { SessionOccurrence } from '../../extract/source-adapter.js';
import { type Diagnostic, diagnostic } from '../../shared/diagnostic.js';
import { rowSource } from '../row-source.js';
import type { SessionView } from '../session-view.js';
import { timeDiagnostics } from '../time-diagnostics.js';
import { ToolIdentityAllocator } from '../tool-identity.js';
import { CaptureMessageIds } from './capture-message-id.js';
import { captureMessage, captureView, linkParents } from './capture-view.js';

function unterminatedThinking(doc: MarkdownDocument, occurrence: SessionOccurrence): Diagnostic[] {
  const counts = doc.turns.map((turn) => turn.unterminatedThinking).filter((n) => n > 0);
  if (counts.length === 0) return [];
  return [
    diagnostic(
      'CAPTURE_THINKING_UNTERMINATED',
      'A thinking block in the Markdown never closes; it was kept as message text',
      { blocks: counts.reduce((a, b) => a + b, 0), messages: counts.length },
      { sessionId: occurrence.sessionId, sourceRef: occurrence.occurrenceRef, severity: 'info' },
    ),
  ];
}

export function markdownExportView(contribution: MarkdownExportContribution): SessionView {
  const doc = contribution.data;
  const ids = new CaptureMessageIds(doc.surface);
  const messages = doc.turns.map((turn) => {
    const messageId = ids.next(turn.role, turn.writtenText);
    const allocator = new ToolIdentityAllocator(messageId);
    return captureMessage({
      messageId,
      identityOrigin: 'capture-v1',
      role: turn.role,
      content: turn.text,
      thinking: turn.thinking,
      model: turn.model,
      time: {
        ...(turn.stampedAtMs === null
          ? { kind: 'missing', inferable: false }
          : { kind: 'direct', ms: turn.stampedAtMs, source: 'capture-event' }),
        ...(turn.timeProblems.length === 0 ? {} : { problems: turn.timeProblems }),
      },
      origin: 'markdown',
      toolCalls: turn.tools.map((tool) => ({
        toolId: allocator.next({ name: tool.name, summary: tool.summary }),
        toolIdOrigin: 'tool-v1' as const,
        nativeCallId: null,
        name: tool.name,
        status: 'unknown',
        params: null,
        result: null,
        error: null,
        files: [],
        userDecision: null,
        extensions: { toolType: tool.toolType, summary: tool.summary },
      })),
      extensions: {
        section: turn.section,
        annotation: turn.annotation,
        mode: turn.mode,
        elidedToolActivity: turn.elisions,
      },
      sources: [rowSource(contribution.occurrence, `markdown:line:${turn.line}`)],
    });
  });
  const lost = ['native-message-ids', 'tool-results'];
  if (doc.sessionIdOrigin !== 'specstory-uuid') lost.push('native-session-id');
  if (doc.turns.some((turn) => turn.stampedAtMs === null)) lost.push('message-timestamps');
  if (doc.turns.some((turn) => turn.role === 'assistant' && turn.model === null)) lost.push('models');
  if (doc.surface === 'export-chat') lost.push('tool-calls');
  return captureView(contribution, {
    resolvedSource: 'markdown-export',
    sourceRole: 'markdown',
    complete: true,
    reasonCodes: ['markdown-lossy'],
    title: doc.title,
    createdAt: doc.declaredAtMs === null ? null : { ms: doc.declaredAtMs, source: 'capture-metadata' },
    updatedAt: null,
    messages: linkParents(messages),
    diagnostics: [
      ...unterminatedThinking(doc, contribution.occurrence),
      ...timeDiagnostics(doc.timeProblems, contribution.occurrence.sessionId),
    ],
    extensions: {
      capture: {
        surface: doc.surface,
        generation: doc.generation,
        lifecycle: 'complete-lossy',
        sessionIdOrigin: doc.sessionIdOrigin,
        formatVersion: doc.formatVersion,
        appVersion: doc.appVersion,
        harness: doc.harness,
        opaqueDates: doc.opaqueDates,
        emptyUserTurns: doc.emptyUserTurns,
        lost,
      },
    },
  });
}
