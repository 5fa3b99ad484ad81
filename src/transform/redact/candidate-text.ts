/**
 * Whether any rule could change a text (a secret word, a library keyword, `@`, `eyJ`, a JSON `\u`
 * escape); a text without any is neither parsed nor scanned. One pass against case-folded trigram
 * anchors rejects most texts; the exact tests decide the rest.
 */
import { LIBRARY_KEYWORDS, RULE_ANCHORS } from './library-rules.js';

const SECRET_WORDS = /pass|pwd|pswd|secret|token|key|pin|cred|auth|bearer/i;

/** Literals, compared without case, of which every match of a test below contains one. */
export const ANCHORS: readonly string[] = [
  ...['pas', 'pwd', 'psw', 'pin', 'sec', 'tok', 'key', 'cre', 'aut', 'bea'],
  ...['@', 'eyj', '\\u'],
  ...Object.values(RULE_ANCHORS).flat(),
];

const BITS = 7;
const MASK = (1 << (3 * BITS)) - 1;

/** ASCII folded to lower case; every other character to 0, which no anchor holds. */
const FOLD = Uint8Array.from({ length: 128 }, (_, c) => (c >= 65 && c <= 90 ? c | 32 : c));

/** One bit per trigram of folded characters; anchors shorter than three hold whatever precedes them. */
const TABLE = (() => {
  const table = new Uint32Array((MASK + 1) >>> 5);
  const set = (key: number): void => {
    table[key >>> 5]! |= 1 << (key & 31);
  };
  for (const anchor of ANCHORS) {
    let key = 0;
    for (const char of anchor.toLowerCase()) key = (key << BITS) | FOLD[char.charCodeAt(0)]!;
    const free = 3 - anchor.length;
    for (let prefix = 0; prefix < 1 << (free * BITS); prefix++) set((prefix << (anchor.length * BITS)) | key);
  }
  return table;
})();

function holdsAnchor(value: string): boolean {
  let key = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    key = ((key << BITS) | (c < 128 ? FOLD[c]! : 0)) & MASK;
    if ((TABLE[key >>> 5]! >>> (key & 31)) & 1) return true;
  }
  return false;
}

// Separate tests: one alternation of all of them ran ~3x slower (V8 scans it position by position).
export function candidateText(value: string): boolean {
  return (
    holdsAnchor(value) &&
    (SECRET_WORDS.test(value) ||
      value.includes('@') ||
      value.includes('eyJ') ||
      value.includes('\\u') ||
      LIBRARY_KEYWORDS.test(value))
  );
}
