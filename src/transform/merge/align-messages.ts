/**
 * Composer→Store alignment, computed once: an exact LCS over strong keys gives anchors (ties
 * advance the Composer side), then between consecutive anchors each Composer message pairs with
 * the earliest later compatible Store message. The result depends only on content, never on
 * timestamps, paths or the preferred side.
 */
import type { ViewMessage } from '../session-view.js';
import { compatible, strongKey } from './message-keys.js';

export interface Pair {
  composer: number;
  store: number;
}

function lcsAnchors(composerKeys: readonly (string | null)[], storeKeys: readonly (string | null)[]): Pair[] {
  const n = composerKeys.length;
  const m = storeKeys.length;
  const width = m + 1;
  // suffix[i][j] = LCS length of composer[i..] and store[j..]
  const suffix = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      const key = composerKeys[i];
      suffix[i * width + j] =
        key !== null && key === storeKeys[j]
          ? suffix[(i + 1) * width + j + 1]! + 1
          : Math.max(suffix[(i + 1) * width + j]!, suffix[i * width + j + 1]!);
    }
  }
  const pairs: Pair[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    const key = composerKeys[i];
    if (key !== null && key === storeKeys[j]) {
      pairs.push({ composer: i, store: j });
      i++;
      j++;
    } else if (suffix[(i + 1) * width + j]! >= suffix[i * width + j + 1]!) i++;
    else j++;
  }
  return pairs;
}

export function alignMessages(composer: readonly ViewMessage[], store: readonly ViewMessage[]): Pair[] {
  const anchors = lcsAnchors(composer.map(strongKey), store.map(strongKey));
  const pairs: Pair[] = [];
  let composerFrom = 0;
  let storeFrom = 0;
  for (const anchor of [...anchors, { composer: composer.length, store: store.length }]) {
    let nextStore = storeFrom;
    for (let i = composerFrom; i < anchor.composer; i++) {
      for (let j = nextStore; j < anchor.store; j++) {
        if (compatible(composer[i]!, store[j]!)) {
          pairs.push({ composer: i, store: j });
          nextStore = j + 1;
          break;
        }
      }
    }
    if (anchor.composer < composer.length) pairs.push(anchor);
    composerFrom = anchor.composer + 1;
    storeFrom = anchor.store + 1;
  }
  return pairs;
}
