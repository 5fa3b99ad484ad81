/**
 * The main thread's part of an early content pass: instead of waiting for the worker, it walks back
 * halves of the bubble rows the worker has not reached (`BackHalves`). A session is digested here
 * only when its rows lie in one half; its `composerData` value comes first, from the caller.
 */
import { forEachRawRow, RawTableError } from '../sqlite/raw-table-rows.js';
import { BackHalves } from '../sqlite/root-share.js';
import { BUBBLE_PREFIX } from './bubble-key-owners.js';
import { type OwnedDigestJob, ownerCache } from './owned-content-digests.js';
import { ContentDigest } from './session-fingerprint.js';

/** The bubble rows of one session this thread walked. */
export interface LaneSession {
  rows: number;
  maxRowid: number;
  rowidSum: number;
  /** Fed its `composerData` value, then its rows; null when they lay in two halves. */
  digest: ContentDigest | null;
  range: number;
}

/** A session's bubble count, highest rowid and rowid sum, as SQLite's key index gives them. */
export type BubbleStats = readonly [rows: number, maxRowid: number | null, rowidSum: number];

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Composer ID → what this thread saw of it. Empty when the walk met a page it cannot read: the
 * halves it took are then unread, and their sessions' fingerprints tell the caller so.
 */
export function laneDigests(
  job: OwnedDigestJob,
  doc: (composerId: string) => Uint8Array | null | undefined,
): Map<string, LaneSession> {
  if (job.share === undefined) return new Map();
  const seen = new Map<string, LaneSession | null>();
  const prefix = Buffer.from(BUBBLE_PREFIX);
  const known = new Set(job.colonIds.map((id) => Buffer.from(id, 'utf8').toString('latin1')));
  const ownerOf = ownerCache(prefix.length, known);
  const halves = new BackHalves(job.share);
  const ids = new Map<string, string>();
  try {
    forEachRawRow(
      job.source,
      job.shape,
      prefix,
      (rowid, value, key, text) => {
        if (!text) return;
        const owner = ownerOf(key);
        if (owner === null) return;
        let session = seen.get(owner);
        if (session === undefined) {
          session = begin(owner, halves.range, doc, ids);
          seen.set(owner, session);
        }
        if (session === null) return;
        if (session.range !== halves.range) session.digest = null;
        session.rows++;
        session.maxRowid = Math.max(session.maxRowid, rowid);
        session.rowidSum += rowid;
        session.digest?.bubble(rowid, value);
      },
      undefined,
      halves,
    );
  } catch (error) {
    if (error instanceof RawTableError) return new Map();
    throw error;
  }
  const lane = new Map<string, LaneSession>();
  for (const [owner, session] of seen) if (session !== null) lane.set(ids.get(owner)!, session);
  return lane;
}

/**
 * The session's content digest from this thread's walk, its diff rows last; undefined unless the
 * walk saw every row the key index lists for it, in one half.
 */
export function laneDigest(
  session: LaneSession | undefined,
  stats: BubbleStats | undefined,
  diffs: () => Iterable<[number, Uint8Array | null]>,
): string | undefined {
  if (session?.digest == null || stats === undefined) return undefined;
  if (session.rows !== stats[0] || session.maxRowid !== stats[1] || session.rowidSum !== stats[2])
    return undefined;
  for (const [rowid, value] of diffs()) session.digest.diff(rowid, value);
  return session.digest.digest();
}

/** A session met first; null when its ID is not UTF-8 (it has no `composerData` key to read). */
function begin(
  owner: string,
  range: number,
  doc: (composerId: string) => Uint8Array | null | undefined,
  ids: Map<string, string>,
): LaneSession | null {
  let composerId: string;
  try {
    composerId = strict.decode(Buffer.from(owner, 'latin1'));
  } catch {
    return null;
  }
  ids.set(owner, composerId);
  const digest = new ContentDigest();
  digest.doc(doc(composerId));
  return { rows: 0, maxRowid: -1, rowidSum: 0, digest, range };
}
