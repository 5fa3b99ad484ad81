/**
 * The SDK-shaped `interaction_update` event (other-sources.md §2.4, §2.6), variant in `type` or
 * `subtype`. Mapped: text and thinking deltas, tool-call start/partial/complete, shell output;
 * others return null and are kept verbatim. Callers use these or the simplified events, never both.
 */
import type { JsonObject } from '../../extract/capture/capture-contribution.js';
import { obj, str } from '../../extract/capture/json-values.js';

export type InteractionDelta =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; text: string }
  | {
      kind: 'tool';
      phase: 'started' | 'partial' | 'completed';
      callId: string | null;
      name: string | null;
      args: unknown;
      result: unknown;
    }
  | { kind: 'tool-output'; callId: string | null; text: string };

const TOOL_PHASES: Readonly<Record<string, 'started' | 'partial' | 'completed'>> = {
  'tool-call-started': 'started',
  'tool-call-partial': 'partial',
  'tool-call-delta': 'partial',
  'tool-call-completed': 'completed',
};

function variantOf(update: JsonObject): string | null {
  const named = [update.type, update.subtype].map(str).find((v) => v !== null && v !== 'interaction_update');
  return named
    ? named
        .replace(/([a-z])([A-Z])/g, '$1-$2')
        .replace(/_/g, '-')
        .toLowerCase()
    : null;
}

function deltaText(update: JsonObject): string | null {
  const text = [update.text, update.delta, update.content].find((v) => typeof v === 'string');
  return typeof text === 'string' ? text : null;
}

/** The update a carrier holds: an SSE frame's `data`, or a CLI line's `update`/`data`, else the line itself. */
export function interactionPayload(carrier: JsonObject): JsonObject {
  return obj(carrier.update) ?? obj(carrier.data) ?? carrier;
}

export function interactionDelta(update: JsonObject): InteractionDelta | null {
  const variant = variantOf(update);
  if (variant === 'text-delta' || variant === 'thinking-delta') {
    const text = deltaText(update);
    if (text === null) return null;
    return variant === 'text-delta' ? { kind: 'text', text } : { kind: 'thinking', text };
  }
  const call = { ...update, ...(obj(update.toolCall) ?? {}) };
  const callId = str(call.callId) ?? str(call.toolCallId) ?? str(call.call_id);
  if (variant === 'shell-output-delta') {
    const text = deltaText(update);
    return text === null ? null : { kind: 'tool-output', callId, text };
  }
  const phase = variant === null ? undefined : TOOL_PHASES[variant];
  if (phase === undefined) return null;
  return {
    kind: 'tool',
    phase,
    callId,
    name: str(call.name) ?? str(call.toolName),
    args: call.args ?? call.arguments ?? null,
    result: call.result ?? null,
  };
}
