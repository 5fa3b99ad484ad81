/**
 * Composer→Store alignment, computed once: an exact LCS over strong keys gives anchors
 * (`lcs-anchors.ts`), then between anchors each Composer message pairs with the earliest later
 * compatible Store message. It depends only on content, never on timestamps, paths or the preferred
 * side.
 */
import type { ViewMessage } from '../session-view.js';
import { lcsAnchors, type Pair } from './lcs-anchors.js';
import { compatible, strongKey } from './message-keys.js';

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
