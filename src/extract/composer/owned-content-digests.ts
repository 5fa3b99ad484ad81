/**
 * Every global session's content digest and key-index fingerprint from the file's bytes, before the
 * catalog lists a session: a row's session is decided from its key by the `BubbleKeyOwners` rule.
 * A digest is trusted only where its fingerprint equals the one SQLite's key index gives.
 */
import { forEachRawRow, type RawRow, type RawSource, type RawTableShape } from '../sqlite/raw-table-rows.js';
import { frontClaims, type RootShare } from '../sqlite/root-share.js';
import { BUBBLE_PREFIX, CODE_BLOCK_DIFF_PREFIX, COMPOSER_DATA_PREFIX } from './bubble-key-owners.js';
import { ContentDigest, fingerprintOf, type SessionStats } from './session-fingerprint.js';

export interface OwnedDigestJob {
  source: RawSource;
  shape: RawTableShape;
  /** Composer IDs holding `:` (`BubbleKeyOwners.colonIds`). */
  colonIds: readonly string[];
  /** Rowids of the `composerData:` rows and of the `codeBlockDiff:` rows, ascending (key index). */
  docRowids: readonly number[];
  diffRowids: readonly number[];
  /** `shareCell()`: the bubble rows' root children, which another thread may walk in part. */
  share?: Int32Array;
}

/** Composer ID → [its fingerprint as `fingerprintOf` gives it, its content digest]. */
export type OwnedDigests = Map<string, [string, string]>;

interface Owned {
  digest: ContentDigest;
  stats: SessionStats;
  /** Two `composerData:` rows with its key: which one SQLite returns is not decided here. */
  ambiguous: boolean;
}

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** IDs are handled as byte strings (one char per byte), so a key that is not UTF-8 still has an owner. */
const bytesOf = (key: Uint8Array, from: number): string =>
  Buffer.from(key.buffer, key.byteOffset + from, key.byteLength - from).toString('latin1');

/** `BubbleKeyOwners`' rule on byte strings: the longest colon-bounded known prefix, else the first segment. */
function ownerIn(rest: string, known: ReadonlySet<string>): string | null {
  const first = rest.indexOf(':');
  if (known.size > 0) {
    for (let at = rest.lastIndexOf(':'); at > first; at = rest.lastIndexOf(':', at - 1)) {
      const candidate = rest.slice(0, at);
      if (known.has(candidate)) return candidate;
    }
  }
  return first > 0 ? rest.slice(0, first) : null;
}

/**
 * A key's owner by `ownerIn`. Without colon-bearing IDs it is the bytes before the first colon,
 * mostly the previous row's: compared in place, so such a row allocates nothing.
 */
export function ownerCache(from: number, known: ReadonlySet<string>): (key: Uint8Array) => string | null {
  if (known.size > 0) return (key) => ownerIn(bytesOf(key, from), known);
  let last = new Uint8Array(0);
  let owner = '';
  return (key) => {
    const colon = key.indexOf(0x3a, from);
    if (colon <= from) return null;
    const length = colon - from;
    let same = length === last.length;
    for (let i = 0; same && i < length; i++) same = key[from + i] === last[i];
    if (!same) {
      // A copy: the key lies in a page buffer the walk reuses (and a Buffer's `slice` is a view).
      last = new Uint8Array(key.subarray(from, colon));
      owner = Buffer.from(last.buffer, last.byteOffset, length).toString('latin1');
    }
    return owner;
  };
}

export function ownedContentDigests(job: OwnedDigestJob): OwnedDigests {
  const { source, shape } = job;
  const known = new Set(job.colonIds.map((id) => Buffer.from(id, 'utf8').toString('latin1')));
  const owned = new Map<string, Owned>();
  const entry = (id: string): Owned => {
    let found = owned.get(id);
    if (found === undefined) {
      const stats = {
        rows: 0,
        maxRowid: null,
        rowidSum: 0,
        docRowid: null,
        docBytes: null,
        diffRows: 0,
        diffRowidSum: 0,
      };
      found = { digest: new ContentDigest(), stats, ambiguous: false };
      owned.set(id, found);
    }
    return found;
  };
  // Rows whose key is TEXT, as SQLite's `key >= ? AND key < ?` range reads them (a BLOB key is outside).
  const textRows = (prefix: Buffer, row: RawRow, only?: readonly number[], share?: RootShare): void =>
    forEachRawRow(
      source,
      shape,
      prefix,
      (rowid, value, key, text) => {
        if (text) row(rowid, value, key, text);
      },
      only,
      share,
    );
  const docPrefix = Buffer.from(COMPOSER_DATA_PREFIX);
  textRows(
    docPrefix,
    (rowid, value, key) => {
      const doc = entry(bytesOf(key, docPrefix.length));
      if (doc.stats.docRowid !== null) doc.ambiguous = true;
      doc.stats.docRowid = rowid;
      doc.stats.docBytes = value === null ? null : value.length;
      doc.digest.doc(value);
    },
    job.docRowids,
  );
  const bubblePrefix = Buffer.from(BUBBLE_PREFIX);
  const ownerOf = ownerCache(bubblePrefix.length, known);
  textRows(
    bubblePrefix,
    (rowid, value, key) => {
      const id = ownerOf(key);
      if (id === null) return;
      let session = owned.get(id);
      if (session === undefined) {
        // Without a `composerData:` row it starts as the per-session digest does: with its absence.
        session = entry(id);
        session.digest.doc(undefined);
      }
      session.stats.rows++;
      session.stats.maxRowid = rowid;
      session.stats.rowidSum += rowid;
      session.digest.bubble(rowid, value);
    },
    undefined,
    job.share === undefined ? undefined : frontClaims(job.share),
  );
  // A diff row belongs to every session whose `codeBlockDiff:<id>:` prefix its key starts with.
  const diffPrefix = Buffer.from(CODE_BLOCK_DIFF_PREFIX);
  textRows(
    diffPrefix,
    (rowid, value, key) => {
      const rest = bytesOf(key, diffPrefix.length);
      for (let at = rest.indexOf(':'); at > 0; at = rest.indexOf(':', at + 1)) {
        const session = owned.get(rest.slice(0, at));
        if (session === undefined) continue;
        session.stats.diffRows++;
        session.stats.diffRowidSum += rowid;
        session.digest.diff(rowid, value);
      }
    },
    job.diffRowids,
  );
  const digests: OwnedDigests = new Map();
  for (const [id, session] of owned) {
    if (session.ambiguous) continue;
    let composerId: string;
    try {
      composerId = strict.decode(Buffer.from(id, 'latin1'));
    } catch {
      continue;
    }
    digests.set(composerId, [fingerprintOf(session.stats), session.digest.digest()]);
  }
  return digests;
}
