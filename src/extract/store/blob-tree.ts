/**
 * Depth-first walk of the content-addressed store.db tree: each node is byte-scanned for 34-byte
 * frames (`0x0a 0x20` leaf, `0x12 0x20` subtree), children visited in order, cycles stopped by a
 * visited set over subtrees. `readBlob` enforces the read limits.
 */
export type BlobReader = (id: string) => Uint8Array | null;

export interface TreeWalk {
  /** Leaf hashes in traversal order. */
  leaves: string[];
  problems: string[];
}

const FRAME = 34;
const LEAF_TAG = 0x0a;
const SUBTREE_TAG = 0x12;
const HASH_LEN = 0x20;

/** A tree node being scanned: its bytes and the offset of the next frame to look at. */
interface OpenNode {
  node: Uint8Array;
  at: number;
}

/** Walks with an explicit stack (not recursion), so a hostile chain of subtrees cannot overflow it. */
export function walkTree(rootId: string, readBlob: BlobReader): TreeWalk {
  const leaves: string[] = [];
  const problems: string[] = [];
  const visited = new Set<string>();
  const stack: OpenNode[] = [];
  const enter = (id: string): void => {
    if (visited.has(id)) {
      problems.push('subtree-cycle');
      return;
    }
    visited.add(id);
    const node = readBlob(id);
    if (node === null) problems.push('missing-tree-blob');
    else stack.push({ node, at: 0 });
  };
  enter(rootId);
  for (let top = stack.at(-1); top !== undefined; top = stack.at(-1)) {
    const { node } = top;
    if (top.at + FRAME > node.length) {
      stack.pop();
      continue;
    }
    const at = top.at;
    const tag = node[at];
    if ((tag === LEAF_TAG || tag === SUBTREE_TAG) && node[at + 1] === HASH_LEN) {
      top.at += FRAME;
      const hash = Buffer.from(node.buffer, node.byteOffset + at + 2, HASH_LEN).toString('hex');
      if (tag === LEAF_TAG) leaves.push(hash);
      else enter(hash);
    } else top.at += 1;
  }
  return { leaves, problems };
}
