/**
 * Tool calls of a matched Composer/Store pair: Composer calls keep slots, order and IDs and are
 * enriched; Store calls pair by name and equal native call ID, then equal params, then params
 * missing on a side; unmatched Store calls append in Store order, keeping their Store-side IDs.
 */
import { canonicalJson } from '../../shared/json/canonical-json.js';
import { notChosen } from '../row-source.js';
import type { ViewToolCall } from '../session-view.js';

type Rule = (c: ViewToolCall, s: ViewToolCall) => boolean;

const params = (call: ViewToolCall): string | null =>
  call.params === null ? null : canonicalJson(call.params);

const RULES: Rule[] = [
  (c, s) =>
    c.name === s.name &&
    c.nativeCallId !== null &&
    c.nativeCallId !== '' &&
    c.nativeCallId === s.nativeCallId,
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
    nativeCallId: composer.nativeCallId ?? store.nativeCallId,
    sources: [...(composer.sources ?? []), ...notChosen(store.sources ?? [])],
  };
}

export function mergeToolCalls(
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
  for (const [index, call] of store.entries()) if (!matchedStore.has(index)) merged.push(call);
  return merged;
}
