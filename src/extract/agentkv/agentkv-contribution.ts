/** The agentKv blobs hydration read for one Composer session, handed to the transform as bytes. */
import type { Diagnostic } from '../../shared/diagnostic.js';

/** How a blob was reached from the session (cursor-formats §1.4). */
export type BlobLink = 'conversation-state' | 'request-id';

export interface AgentKvBlobBytes {
  blobId: string;
  link: BlobLink;
  /** Position in the root's prompt list, or null for a blob reached through a turn or a request. */
  promptIndex: number | null;
  /** A turn's user-message or step blob (§1.4a, one source only): counted, its content not decoded. */
  turnPart: boolean;
  /** The stored value; null for SQL NULL, `changed` when a writer raced the read. */
  bytes: Uint8Array | null | 'changed';
}

export interface AgentKvSessionBytes {
  /** The `conversationState` string the links were read from (checked against the decoded doc). */
  state: string | null;
  /** True when `state` was present but not `~` + base64 protobuf. */
  stateUnreadable: boolean;
  turns: number;
  blobs: AgentKvBlobBytes[];
  /** Blob IDs a link named that no row holds. */
  missing: number;
  readFailure: Diagnostic | null;
}
