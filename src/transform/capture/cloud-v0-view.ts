/**
 * A legacy Cloud Agents v0 conversation → SessionView: session = agent (same ID namespace as v1),
 * one text message per user/assistant message with its native ID. Lossy and without a terminal
 * signal, it is partial: a complete v1 capture supersedes it.
 */
import type { CloudV0Contribution, JsonObject } from '../../extract/capture/capture-contribution.js';
import { obj, str } from '../../extract/capture/json-values.js';
import type { TimeProblem } from '../../shared/time/read-instant.js';
import { rowSource } from '../row-source.js';
import type { SessionView, ViewMessage } from '../session-view.js';
import { claimId } from '../store/store-identity.js';
import { timeDiagnostics } from '../time-diagnostics.js';
import { CaptureMessageIds } from './capture-message-id.js';
import { captureMessage, captureView, linkParents } from './capture-view.js';
import { metadataTime } from './cloud-agent-view.js';
import { unknownFields } from './unknown-fields.js';

const V0_ROLES: Readonly<Record<string, 'user' | 'assistant'>> = {
  user_message: 'user',
  assistant_message: 'assistant',
};

/** What a v0 conversation never carries (listed so consumers know, never filled in). */
export const V0_LOST = ['message-timestamps', 'models', 'thinking', 'tool-calls', 'tool-results', 'runs'];

export function cloudV0View(contribution: CloudV0Contribution): SessionView {
  const { data, occurrence } = contribution;
  const problems: TimeProblem[] = [];
  const taken = new Set<string>();
  const contentIds = new CaptureMessageIds('cloud-v0');
  const unknownMessages: JsonObject[] = [];
  let collisions = 0;
  const messages: ViewMessage[] = [];
  data.messages.forEach((raw, index) => {
    const message = obj(raw);
    const role = message === null ? undefined : V0_ROLES[String(message.type)];
    if (message === null || role === undefined || typeof message.text !== 'string') {
      unknownMessages.push({ index, message: raw });
      return;
    }
    const native = str(message.id);
    const messageId = claimId(native ?? contentIds.next(role, message.text), taken);
    if (native !== null && messageId !== native) collisions++;
    messages.push(
      captureMessage({
        messageId,
        identityOrigin: native === null ? 'capture-v1' : 'capture-native',
        role,
        content: message.text,
        time: { kind: 'missing', inferable: false },
        origin: 'cloud',
        extensions: { index, unknownFields: unknownFields(message, ['id', 'type', 'text']) },
        sources: [rowSource(occurrence, `cloud-v0:messages#${index}`)],
      }),
    );
  });
  const agent = data.agent;
  return captureView(contribution, {
    resolvedSource: 'cloud-agent',
    sourceRole: 'cloud',
    complete: false,
    reasonCodes: ['capture-provisional', 'cloud-v0-lossy'],
    title: str(agent?.name),
    createdAt: metadataTime(agent?.createdAt, 'cloud.agent.createdAt', problems),
    updatedAt: metadataTime(agent?.updatedAt, 'cloud.agent.updatedAt', problems),
    messages: linkParents(messages),
    diagnostics: timeDiagnostics(problems, occurrence.sessionId),
    extensions: {
      capture: {
        surface: 'cloud-v0-conversation',
        format: data.form,
        lifecycle: 'provisional',
        agentState: str(agent?.status),
        agent,
        lost: V0_LOST,
        unknownMessages,
        messageIdCollisions: collisions,
        extraFields: data.extraFields,
      },
    },
  });
}
