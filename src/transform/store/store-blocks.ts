/** Shared reading of Store message content blocks (text, reasoning, tool calls) for DB and transcript leaves. */

export type JsonObject = Record<string, unknown>;

export function asObject(value: unknown): JsonObject | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : null;
}

export function asString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** Parameters as stored: an object, a JSON string of an object, else `{_raw}`; undefined when absent. */
export function toolParams(value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  if (asObject(value)) return value;
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      if (asObject(parsed)) return parsed;
    } catch {
      // kept raw below
    }
    return { _raw: value };
  }
  return { _raw: value };
}

export const TOOL_CALL_BLOCKS = new Set(['tool-call', 'tool_use', 'tool_call']);
export const TOOL_RESULT_BLOCKS = new Set(['tool-result', 'tool_result']);
export const THINKING_BLOCKS = new Set(['reasoning', 'thinking']);

export interface BlockCall {
  nativeId: string | null;
  name: string;
  params: unknown;
}

export interface ReadBlocks {
  text: string;
  thinking: string | null;
  calls: BlockCall[];
  /** Block types that cannot be represented losslessly (images, attachments, unknown). */
  unsupported: string[];
  /** Tool-result blocks inline in this message. */
  results: JsonObject[];
}

export function readBlocks(content: unknown): ReadBlocks {
  const out: ReadBlocks = { text: '', thinking: null, calls: [], unsupported: [], results: [] };
  if (typeof content === 'string') {
    out.text = content;
    return out;
  }
  if (!Array.isArray(content)) {
    if (content !== undefined && content !== null) out.unsupported.push('content-shape');
    return out;
  }
  const thinking: string[] = [];
  for (const raw of content) {
    const block = asObject(raw);
    const type = asString(block?.type) ?? 'unknown';
    if (!block) out.unsupported.push('non-object-block');
    else if (type === 'text' && typeof block.text === 'string') out.text += block.text;
    else if (THINKING_BLOCKS.has(type)) {
      const text = asString(block.text) ?? asString(block.thinking);
      if (text) thinking.push(text);
    } else if (TOOL_CALL_BLOCKS.has(type)) {
      const name = asString(block.toolName) ?? asString(block.name);
      if (name === null) out.unsupported.push(type);
      else
        out.calls.push({
          nativeId: asString(block.toolCallId) ?? asString(block.tool_call_id) ?? asString(block.id),
          name,
          params: toolParams(block.args ?? block.input ?? block.arguments),
        });
    } else if (TOOL_RESULT_BLOCKS.has(type)) out.results.push(block);
    else out.unsupported.push(type);
  }
  if (thinking.length > 0) out.thinking = thinking.join('\n\n');
  return out;
}
