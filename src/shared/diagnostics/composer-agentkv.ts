/** Codes of the global DB: Composer data, agentKv blobs and subagent links. */
import { type CatalogueEntry, none } from './catalogue-entry.js';

export const COMPOSER_AGENTKV_CODES = {
  AGENTKV_BLOB_HASH_MISMATCH: {
    severity: ['warning'],
    exit: null,
    meaning:
      'agentKv blobs of the session do not hash to the SHA-256 their key names; their facts are not trusted.',
    remedy: 'None; the rest of the session is loaded. A changed or damaged global DB is the usual cause.',
    details: (z) => z.object({ count: z.number() }),
  },
  AGENTKV_BLOBS_POSSIBLY_ENCRYPTED: {
    severity: ['warning'],
    exit: null,
    meaning:
      'agentKv blobs of the session are neither JSON, protobuf nor text (possibly encrypted); they are counted, never decrypted.',
    remedy: 'None; the session is loaded from what is readable.',
    details: (z) => z.object({ count: z.number() }),
  },
  AGENTKV_BLOBS_UNLINKED: {
    severity: ['info'],
    exit: null,
    meaning:
      'agentKv message blobs that no session read in this run links to; counted, never attached by guess.',
    remedy: 'None; background runs and deleted chats leave such blobs behind.',
    details: (z) => z.object({ count: z.number(), jsonBlobs: z.number() }),
  },
  AGENTKV_LINK_UNREADABLE: {
    severity: ['warning'],
    exit: null,
    meaning:
      'Links to agentKv blobs could not be followed: an unreadable conversationState, or named blobs missing or changed.',
    remedy: 'None; the session is loaded from its bubbles and the blobs that were read.',
    details: (z) =>
      z.object({
        reason: z.enum(['state-unreadable', 'blob-missing', 'blob-changed']),
        count: z.number(),
      }),
  },
  AGENTKV_PROTOBUF_UNREAD: {
    severity: ['info'],
    exit: null,
    meaning:
      'agentKv turn user/step blobs (a protobuf layout known from one source only) are counted, never decoded.',
    remedy:
      'None; the session keeps its bubbles and JSON blobs. Sessions with only such turns are not loaded.',
    details: (z) =>
      z.object({
        /** `turn-content`: user/step blobs of a read session; `session`: composers with only protobuf turns. */
        part: z.enum(['turn-content', 'session']),
        count: z.number(),
      }),
  },
  COMPOSER_BUBBLE_CORRUPTED: {
    severity: ['warning'],
    exit: null,
    meaning: 'Some Composer messages could not be decoded and are kept as placeholders.',
    remedy: 'None; the placeholders keep message identity and order.',
    details: (z) => z.object({ count: z.number() }),
  },
  COMPOSER_DATA_UNREADABLE: {
    severity: ['warning'],
    exit: null,
    meaning: "A Composer session's metadata document is unreadable; its messages are kept.",
    remedy: 'None; the session is loaded from its messages.',
    details: (z) => z.object({ reason: z.string() }),
  },
  COMPOSER_INDEX_ENTRY_UNREADABLE: {
    severity: ['warning'],
    exit: null,
    meaning: 'A workspace index entry is unreadable.',
    remedy: 'None; the session is still read from the global database.',
    details: none,
  },
  COMPOSER_MESSAGE_ID_COLLISION: {
    severity: ['warning'],
    exit: null,
    meaning: 'Composer messages of one session share an ID; later ones are renamed `<id>:collision:<n>`.',
    remedy: 'None; the view is partial, so it never replaces a complete archived session.',
    details: (z) => z.object({ count: z.number() }),
  },
  SUBAGENT_LEGACY_TASK_SESSION: {
    severity: ['info'],
    exit: null,
    meaning:
      'A legacy sub-composer session (`task-<toolCallId>`) is loaded as a session of its own; no source links it to a parent.',
    remedy: 'None; its spawning tool call is part of its session ID.',
    details: none,
  },
  SUBAGENT_LINK_CONFLICT: {
    severity: ['warning'],
    exit: null,
    meaning:
      'Sources disagree on a subagent link fact; the value of the stronger source is kept (docs/compatibility-matrix.md).',
    remedy: 'None; `keptSource` and `otherSource` name the disagreeing sources for a manual check.',
    details: (z) =>
      z.object({
        field: z.enum(['parent_session_id', 'root_session_id', 'spawn_tool_call_id', 'subagent_type']),
        keptSource: z.string(),
        otherSource: z.string(),
      }),
  },
  SUBAGENT_LINK_SELF: {
    severity: ['warning'],
    exit: null,
    meaning: 'A source names the session as its own parent or root; that fact is ignored.',
    remedy: 'None; the other sources still link the session.',
    details: (z) => z.object({ source: z.string() }),
  },
} as const satisfies Record<string, CatalogueEntry>;
