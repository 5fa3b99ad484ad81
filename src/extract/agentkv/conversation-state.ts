/**
 * `composerData.conversationState` (cursor-formats §1.4a): `"~"` + base64 of the root protobuf.
 * Read: root fields 1 (prompt blob IDs) and 8 (turn blob IDs); a turn's agent turn (field 1) with
 * its user blob (1) and step blobs (2). Other field numbers are unknowns (§10).
 */
import { bytesFields, protobufFields } from './protobuf-fields.js';

const BLOB_ID_BYTES = 32;

export interface ConversationRoot {
  promptIds: string[];
  turnIds: string[];
}

function blobIds(values: readonly Uint8Array[]): string[] {
  return values.filter((v) => v.length === BLOB_ID_BYTES).map((v) => Buffer.from(v).toString('hex'));
}

/** The root's blob IDs, or null when the string is not `~` + base64 of a protobuf message. */
export function parseConversationState(state: string): ConversationRoot | null {
  if (!state.startsWith('~') || !/^[A-Za-z0-9+/]*={0,2}$/.test(state.slice(1))) return null;
  const fields = protobufFields(Buffer.from(state.slice(1), 'base64'));
  if (fields === null) return null;
  return { promptIds: blobIds(bytesFields(fields, 1)), turnIds: blobIds(bytesFields(fields, 8)) };
}

/** A turn blob's user-message and step blob IDs (agent turns only), or null when unreadable. */
export function parseTurn(bytes: Uint8Array): { userId: string | null; stepIds: string[] } | null {
  const fields = protobufFields(bytes);
  if (fields === null) return null;
  const agentTurn = bytesFields(fields, 1)[0];
  if (agentTurn === undefined) return { userId: null, stepIds: [] };
  const turn = protobufFields(agentTurn);
  if (turn === null) return null;
  return { userId: blobIds(bytesFields(turn, 1))[0] ?? null, stepIds: blobIds(bytesFields(turn, 2)) };
}
