/**
 * A text as redaction sees it: plain, or JSON whose strings are texts of their own (parsed again
 * when double-encoded) and whose secret-named values are replaced whole. Only changes are spliced
 * into the original, so every other byte is kept and the result still parses.
 */
import { marker } from './ruleset.js';
import { isSecretName } from './secret-name.js';

/** The leaf texts of a session, scanned together; a document refers to them by index. */
export class Leaves {
  readonly texts: string[] = [];
  add(text: string): number {
    this.texts.push(text);
    return this.texts.length - 1;
  }
}

export type Doc = { kind: 'text'; leaf: number } | { kind: 'json'; text: string; parts: Part[] };

type Part =
  | { kind: 'string'; start: number; end: number; value: string; doc: Doc }
  | { kind: 'secret'; start: number; end: number };

const SECRET_VALUE = JSON.stringify(marker('secret-assignment'));
/** Double-encoded JSON deeper than this is redacted as text (each level doubles the escapes). */
const MAX_ENCODED_DEPTH = 16;

function parsesAsContainer(text: string): boolean {
  const trimmed = text.trim();
  const first = trimmed[0];
  const last = trimmed[trimmed.length - 1];
  const candidate =
    (first === '{' && last === '}') || (first === '[' && last === ']') || (first === '"' && last === '"');
  if (!candidate) return false;
  try {
    const value: unknown = JSON.parse(trimmed);
    return typeof value === 'object' ? value !== null : typeof value === 'string';
  } catch {
    return false;
  }
}

function stringEnd(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    i += c === 0x5c ? 2 : 1;
  }
}

function scalarEnd(text: string, start: number): number {
  let i = start;
  while (i < text.length && !/[\s,\]}]/.test(text[i]!)) i++;
  return i;
}

/** The end of the value starting at `start` (a string, a scalar or a whole container). */
function valueEnd(text: string, start: number): number {
  const c = text[start];
  if (c === '"') return stringEnd(text, start);
  if (c !== '{' && c !== '[') return scalarEnd(text, start);
  let depth = 0;
  let i = start;
  while (i < text.length) {
    const d = text[i]!;
    if (d === '"') {
      i = stringEnd(text, i);
      continue;
    }
    if (d === '{' || d === '[') depth++;
    else if (d === '}' || d === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return i;
}

function decodeString(token: string): string {
  return token.includes('\\') ? (JSON.parse(token) as string) : token.slice(1, -1);
}

/** A value that carries nothing to hide: `true`, `false`, `null`, an empty string or a marker. */
function harmless(token: string): boolean {
  return (
    token === 'true' ||
    token === 'false' ||
    token === 'null' ||
    token === '""' ||
    token.startsWith('"[REDACTED:')
  );
}

interface Frame {
  object: boolean;
  expectKey: boolean;
  secretKey: boolean;
}

/** Scans valid JSON text iteratively (any nesting depth) into its string and secret-value parts. */
function jsonParts(text: string, leaves: Leaves, depth: number): Part[] {
  const parts: Part[] = [];
  const stack: Frame[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const top = stack[stack.length - 1];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === ':') {
      i++;
      continue;
    }
    if (c === ',') {
      if (top?.object) top.expectKey = true;
      i++;
      continue;
    }
    if (c === '}' || c === ']') {
      stack.pop();
      i++;
      continue;
    }
    const isKey = top?.object === true && top.expectKey;
    if (!isKey && top?.object && top.secretKey) {
      const end = valueEnd(text, i);
      if (!harmless(text.slice(i, end))) parts.push({ kind: 'secret', start: i, end });
      i = end;
      continue;
    }
    if (c === '{' || c === '[') {
      stack.push({ object: c === '{', expectKey: c === '{', secretKey: false });
      i++;
      continue;
    }
    if (c === '"') {
      const end = stringEnd(text, i);
      const value = decodeString(text.slice(i, end));
      if (isKey) {
        top!.expectKey = false;
        top!.secretKey = isSecretName(value);
      }
      if (value.length > 0)
        parts.push({ kind: 'string', start: i, end, value, doc: decompose(value, leaves, depth + 1) });
      i = end;
      continue;
    }
    i = scalarEnd(text, i);
  }
  return parts;
}

/** Splits a text into the leaves to scan: JSON when it parses as an object, array or string. */
export function decompose(text: string, leaves: Leaves, depth = 0): Doc {
  if (depth < MAX_ENCODED_DEPTH && parsesAsContainer(text))
    return { kind: 'json', text, parts: jsonParts(text, leaves, depth) };
  return { kind: 'text', leaf: leaves.add(text) };
}

/** Splits a JSON column's text (always JSON) into its leaves. */
export function decomposeJson(text: string, leaves: Leaves): Doc {
  return { kind: 'json', text, parts: jsonParts(text, leaves, 0) };
}

/** The document with its redacted leaves spliced in; `onSecretValue` counts whole-value replacements. */
export function rebuild(doc: Doc, redacted: readonly string[], onSecretValue: () => void): string {
  if (doc.kind === 'text') return redacted[doc.leaf]!;
  const pieces: string[] = [];
  let at = 0;
  for (const part of doc.parts) {
    let replacement: string | null = null;
    if (part.kind === 'secret') {
      onSecretValue();
      replacement = SECRET_VALUE;
    } else {
      const value = rebuild(part.doc, redacted, onSecretValue);
      if (value !== part.value) replacement = JSON.stringify(value);
    }
    if (replacement === null) continue;
    pieces.push(doc.text.slice(at, part.start), replacement);
    at = part.end;
  }
  if (at === 0) return doc.text;
  pieces.push(doc.text.slice(at));
  return pieces.join('');
}
