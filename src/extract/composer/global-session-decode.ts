/**
 * Decodes the rows `readGlobalSession` read: strict UTF-8, JSON objects only. NULL, undecodable or
 * non-JSON bubbles are kept as corrupted entries. Pure and apart from the read, so it runs where the
 * session is resolved (a resolve worker), not on the thread that owns the SQLite snapshot.
 */
import { type Diagnostic, diagnostic } from '../../shared/diagnostic.js';
import { type FieldType, hasWrongTypedField } from '../text/field-types.js';
import { parseStrictJson } from '../text/strict-json.js';
import { decodeStrictUtf8, SourceEncodingInvalid } from '../text/strict-utf8.js';
import type {
  ComposerGlobalBytesContribution,
  ComposerGlobalContribution,
  ComposerGlobalData,
  RawBubble,
} from './composer-contribution.js';

type Decoded =
  | { value: Record<string, unknown>; corruption: null }
  | { value: null; corruption: NonNullable<RawBubble['corruption']> };

/** The fields the transform reads from a bubble and from a `composerData` document. */
const BUBBLE_FIELDS: Readonly<Record<string, FieldType>> = {
  type: 'number',
  bubbleId: 'string',
  text: 'string',
  tokenCount: 'object',
  modelInfo: 'object',
  thinking: 'object',
  timingInfo: 'object',
  toolFormerData: 'object',
};
const COMPOSER_DATA_FIELDS: Readonly<Record<string, FieldType>> = {
  composerId: 'string',
  name: 'string',
  fullConversationHeadersOnly: 'array',
};

function decodeJsonObject(
  bytes: Uint8Array | null | 'changed',
  fields: Readonly<Record<string, FieldType>>,
): Decoded {
  if (bytes === 'changed') return { value: null, corruption: 'changed-during-read' };
  if (bytes === null) return { value: null, corruption: 'null-value' };
  let text: string;
  try {
    text = decodeStrictUtf8(bytes, 'sqlite');
  } catch (error) {
    if (error instanceof SourceEncodingInvalid) return { value: null, corruption: 'invalid-encoding' };
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = parseStrictJson(text, 'sqlite');
  } catch (error) {
    return {
      value: null,
      corruption: error instanceof SourceEncodingInvalid ? 'invalid-encoding' : 'invalid-json',
    };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { value: null, corruption: 'not-an-object' };
  }
  const value = parsed as Record<string, unknown>;
  if (hasWrongTypedField(value, fields)) return { value: null, corruption: 'wrong-field-type' };
  return { value, corruption: null };
}

/** Diff ID → parsed value (null when NULL, undecodable or not JSON); the first row of an ID wins. */
function decodeDiffs(
  diffs: NonNullable<ComposerGlobalBytesContribution['data']['diffs']>,
): Map<string, unknown> {
  const decoded = new Map<string, unknown>();
  for (const { diffId, bytes } of diffs) {
    if (decoded.has(diffId)) continue;
    let value: unknown = null;
    if (bytes !== null && bytes !== 'changed') {
      try {
        value = parseStrictJson(decodeStrictUtf8(bytes, 'sqlite'), 'sqlite');
      } catch (error) {
        if (!(error instanceof SourceEncodingInvalid) && !(error instanceof SyntaxError)) throw error;
      }
    }
    decoded.set(diffId, value);
  }
  return decoded;
}

/** The decoded contribution, with the diagnostics in the order the read and the decode found them. */
export function decodeGlobalSession(
  contribution: ComposerGlobalBytesContribution,
): ComposerGlobalContribution {
  const { scope, doc, bubbles, diffs, readFailure, agentKv, subagent } = contribution.data;
  const diagnostics: Diagnostic[] = [];
  const data: ComposerGlobalData = {
    composerData: null,
    bubbles: [],
    truncated: readFailure !== null,
    agentKv: agentKv ?? null,
    subagent: subagent ?? [],
    codeBlockDiffs: decodeDiffs(diffs ?? []),
  };
  if (doc !== undefined) {
    const decoded = decodeJsonObject(doc, COMPOSER_DATA_FIELDS);
    data.composerData = decoded.value;
    if (decoded.corruption !== null) {
      diagnostics.push(
        diagnostic(
          'COMPOSER_DATA_UNREADABLE',
          'Session metadata is unreadable; messages are kept',
          { reason: decoded.corruption },
          scope,
        ),
      );
    }
  }
  for (const { rowid, keyBubbleId, bytes } of bubbles)
    data.bubbles.push({ rowid, keyBubbleId, ...decodeJsonObject(bytes, BUBBLE_FIELDS) });
  if (readFailure !== null) diagnostics.push(readFailure);
  // Undecodable text is never guessed: the bubble stays a flagged placeholder and the view is partial.
  if (data.bubbles.some((bubble) => bubble.corruption === 'invalid-encoding'))
    diagnostics.push(new SourceEncodingInvalid('invalid-utf8', 'sqlite').asDiagnostic(scope));
  const corrupted = data.bubbles.filter((bubble) => bubble.corruption !== null).length;
  if (corrupted > 0) {
    diagnostics.push(
      diagnostic(
        'COMPOSER_BUBBLE_CORRUPTED',
        'Some messages could not be decoded and are kept as placeholders',
        { count: corrupted },
        scope,
      ),
    );
  }
  return { kind: 'composer-global', occurrence: contribution.occurrence, data, diagnostics };
}
