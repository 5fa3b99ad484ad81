/**
 * Tool calls of a matched Composer/Store pair: Composer calls keep slots and order and are
 * enriched; Store calls pair by name and equal native ID, then equal params, then params missing on
 * a side; unmatched Store calls append, re-keyed under the Composer message.
 */
import { canonicalJson } from '../../shared/json/canonical-json.js';
import { notChosen } from '../row-source.js';
import type { ViewToolCall } from '../session-view.js';
import { ToolIdentityAllocator } from '../tool-identity.js';

type Rule = (c: ViewToolCall, s: ViewToolCall) => boolean;

const params = (call: ViewToolCall): string | null =>
  call.params === null ? null : canonicalJson(call.params);

const RULES: Rule[] = [
  (c, s) =>
    c.name === s.name &&
    c.toolIdOrigin === 'source-native' &&
    s.toolIdOrigin === 'source-native' &&
    c.toolId === s.toolId,
  (c, s) => c.name === s.name && params(c) !== null && params(c) === params(s),
  (c, s) => c.name === s.name && (params(c) === null || params(s) === null),
];

function enrich(composer: ViewToolCall, store: ViewToolCall): ViewToolCall {
  return {
    ...composer,
    params: composer.params ?? store.params,
    result: composer.result ?? (composer.status === store.status ? store.result : null),
    error: composer.error ?? (composer.status === store.status ? store.error : null),
    files: composer.files.length > 0 ? composer.files : store.files,
    sources: [...(composer.sources ?? []), ...notChosen(store.sources ?? [])],
  };
}

export function mergeToolCalls(
  messageId: string,
  composer: readonly ViewToolCall[],
  store: readonly ViewToolCall[],
): ViewToolCall[] {
  const matchedStore = new Set<number>();
  const merged = composer.map((call) => call);
  for (const rule of RULES) {
    merged.forEach((call, ci) => {
      if (merged[ci] !== composer[ci]) return;
      const si = store.findIndex((s, index) => !matchedStore.has(index) && rule(call, s));
      if (si === -1) return;
      matchedStore.add(si);
      merged[ci] = enrich(call, store[si]!);
    });
  }
  const allocator = new ToolIdentityAllocator(messageId);
  for (const call of composer)
    if (call.toolIdOrigin === 'tool-v1')
      allocator.next({ name: call.name, params: call.params ?? undefined });
  const taken = new Set(merged.map((c) => c.toolId));
  for (const [index, call] of store.entries()) {
    if (matchedStore.has(index)) continue;
    let toolId = call.toolId;
    if (call.toolIdOrigin === 'tool-v1' || taken.has(toolId))
      toolId = allocator.next({ name: call.name, ...(call.params === null ? {} : { params: call.params }) });
    taken.add(toolId);
    merged.push({
      ...call,
      toolId,
      toolIdOrigin:
        call.toolIdOrigin === 'source-native' && toolId === call.toolId ? 'source-native' : 'tool-v1',
    });
  }
  return merged;
}
