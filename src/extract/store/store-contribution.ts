/** What the Store extractor hands to the transform stage for one occurrence of a session UUID. */
import type { TimeProblem } from '../../shared/time/read-instant.js';
import type { Contribution } from '../source-adapter.js';
import type { SubagentEvidence } from '../subagent/subagent-evidence.js';
import type { StoredModel } from './store-meta-row.js';

/** Facts read from `meta.json` (cursor-formats §2.2); secrets and unknown fields are dropped. */
export interface MetaJsonFacts {
  /** Why the file exists but is not supported metadata (not a file, too large, bad JSON), or null. */
  problem: string | null;
  hasConversation: boolean | null;
  cwd: string | null;
  title: string | null;
  createdAtMs: number | null;
  updatedAtMs: number | null;
  /** Time fields whose values were rejected (docs/time.md). */
  timeProblems: TimeProblem[];
}

/** Whether a store.db is expected for the UUID (cursor-formats §2.7 step 3). */
export type DbExpectation = 'expected' | 'not-expected' | 'unknown';

/** Facts shared by every occurrence of one UUID, from the metadata inventory. */
export interface StoreSessionFacts {
  meta: MetaJsonFacts | null;
  dbExpectation: DbExpectation;
  /** Parent session UUID of a subagent transcript. */
  parentSessionId: string | null;
  /**
   * A transcript with no workspace while some meta.json in the Store is unsupported: the cwd that
   * would attribute it may be the unreadable one, so its workspace is unknown rather than absent.
   */
  workspaceUncertain: boolean;
  /**
   * False when a directory of the Store tree could not be listed: any session may then miss a
   * representation, its metadata or the cwd its transcript's workspace comes from.
   */
  inventoryComplete: boolean;
}

/** One decoded leaf of the store.db tree, in depth-first traversal order. */
export interface StoreLeaf {
  /** Lowercase 64-hex leaf hash named by the tree frame. */
  hash: string;
  /** The message JSON, or null when the blob is missing or malformed. */
  message: Record<string, unknown> | null;
  problem: 'missing-blob' | 'malformed-leaf' | 'possibly-encrypted-leaf' | null;
}

export interface StoreDbData {
  /** `failed`: the DB could not be read (unreadable, bad meta); `read`: the tree was walked. */
  status: 'read' | 'failed';
  failure: string | null;
  title: string | null;
  createdAtMs: number | null;
  /** The meta row's rejected time fields. */
  timeProblems: TimeProblem[];
  leaves: StoreLeaf[];
  /** Tree problems (missing subtree blobs, cycles) that make the view partial. */
  treeProblems: string[];
  facts: StoreSessionFacts;
  /** The meta row's `subagentInfo`, when it holds any link. */
  subagent?: SubagentEvidence | null;
  /** The meta row's `lastUsedModel` (cursor-formats §2.3), when present. */
  lastUsedModel?: StoredModel | null;
}

/** A leaf as read: its bytes, decoded where the session is resolved (`decodeStoreDb`). */
export interface StoreLeafBytes {
  hash: string;
  /** The blob, or null when it is missing. */
  bytes: Uint8Array | null;
}

/**
 * A read store.db with undecoded leaves: bytes cross to a resolve worker far cheaper than parsed
 * messages, and their parse leaves the thread that reads SQLite.
 */
export interface StoreDbBytesData extends Omit<StoreDbData, 'leaves'> {
  leafBytes: StoreLeafBytes[];
}

export interface TranscriptRecord {
  /** 1-based physical line number. */
  line: number;
  record: Record<string, unknown>;
}

export type TranscriptReadState = 'read' | 'unreadable';

export interface StoreTranscriptData {
  format: 'jsonl' | 'txt';
  readState: TranscriptReadState;
  /** Parsed records in order (jsonl), or synthesized role/content records (txt). */
  records: TranscriptRecord[];
  /** Closed frames that were not JSON objects, plus a partial tail. */
  malformedLines: number;
  partialTail: boolean;
  /** A limit or encoding failure cut the read short. */
  cutShort: boolean;
  facts: StoreSessionFacts;
}

export interface StoreMetadataData {
  facts: StoreSessionFacts;
}

export type StoreDbContribution = Contribution<'store-db', StoreDbData>;
export type StoreDbBytesContribution = Contribution<'store-db-bytes', StoreDbBytesData>;
export type StoreTranscriptContribution = Contribution<'store-transcript', StoreTranscriptData>;
export type StoreMetadataContribution = Contribution<'store-metadata', StoreMetadataData>;

export type StoreContribution =
  | StoreDbContribution
  | StoreDbBytesContribution
  | StoreTranscriptContribution
  | StoreMetadataContribution;
