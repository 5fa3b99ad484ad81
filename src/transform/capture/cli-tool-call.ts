/**
 * One CLI `tool_call` event → tool fields. The tool name is the single `<name>ToolCall` key (suffix
 * stripped), else `function.name`, else the protobuf-style `tool.case`, else `unknown`. The result
 * envelope key (`success`, `failure`, `error`, `rejected`) becomes the status.
 */
import type { JsonObject } from '../../extract/capture/capture-contribution.js';
import { obj } from '../../extract/capture/json-values.js';
import { canonicalJson } from '../../shared/json/canonical-json.js';

export interface CliToolFields {
  name: string;
  kindKey: string | null;
  args: unknown;
  outcome: string | null;
  result: string | null;
  error: string | null;
}

function parsedArguments(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  try {
    return JSON.parse(value);
  } catch {
    return { _raw: value };
  }
}

function kindOf(toolCall: JsonObject): { name: string; kindKey: string | null; body: JsonObject | null } {
  const kindKeys = Object.keys(toolCall).filter((key) => key.endsWith('ToolCall'));
  if (kindKeys.length === 1) {
    const kindKey = kindKeys[0]!;
    return {
      name: kindKey.slice(0, -'ToolCall'.length) || kindKey,
      kindKey,
      body: obj(toolCall[kindKey]),
    };
  }
  const fn = obj(toolCall.function);
  if (fn !== null && typeof fn.name === 'string')
    return {
      name: fn.name,
      kindKey: 'function',
      body: { args: parsedArguments(fn.arguments), result: fn.result },
    };
  const oneof = obj(toolCall.tool);
  if (oneof !== null && typeof oneof.case === 'string')
    return { name: oneof.case.replace(/ToolCall$/, ''), kindKey: oneof.case, body: obj(oneof.value) };
  return { name: 'unknown', kindKey: null, body: null };
}

export function cliToolFields(event: JsonObject): CliToolFields {
  const { name, kindKey, body } = kindOf(obj(event.tool_call) ?? {});
  const envelope = obj(body?.result);
  const outcome = envelope === null ? null : (Object.keys(envelope)[0] ?? null);
  const value = outcome === null ? undefined : envelope![outcome];
  return {
    name,
    kindKey,
    args: body?.args ?? null,
    outcome,
    result: outcome === 'success' && value !== undefined ? canonicalJson(value) : null,
    error: outcome !== null && outcome !== 'success' && value !== undefined ? canonicalJson(value) : null,
  };
}

export function toolStatus(subtype: string, outcome: string | null): string {
  if (outcome === 'success') return 'completed';
  if (outcome === 'failure') return 'failed';
  if (outcome !== null) return outcome;
  return subtype === 'completed' ? 'completed' : 'started';
}

/** A tool-call `interaction_update` as tool fields: no result envelope, so no outcome is invented. */
export function interactionToolFields(delta: {
  name: string | null;
  args: unknown;
  result: unknown;
}): CliToolFields {
  return {
    name: delta.name ?? 'unknown',
    kindKey: 'interaction_update',
    args: delta.args,
    outcome: null,
    result: delta.result === null ? null : canonicalJson(delta.result),
    error: null,
  };
}
