/**
 * Node decodes directory entry names as UTF-8 with U+FFFD for invalid bytes, so a name that is not
 * UTF-8 lists as a path that does not exist, and the entry would vanish or be misreported. Only when a
 * listed name holds U+FFFD are the raw names read again: entries whose bytes are UTF-8 are kept (a
 * name may really hold U+FFFD), the others are counted, never guessed. A listing error is thrown.
 */
import { isUtf8 } from 'node:buffer';
import { type Dirent, readdirSync } from 'node:fs';

export function listUtf8Entries(dir: string): { entries: Dirent[]; notUtf8: number } {
  const entries = readdirSync(dir, { withFileTypes: true });
  if (!entries.some((e) => e.name.includes('\uFFFD'))) return { entries, notUtf8: 0 };
  const valid = new Set<string>();
  let notUtf8 = 0;
  for (const raw of readdirSync(dir, { encoding: 'buffer' })) {
    if (isUtf8(raw)) valid.add(raw.toString('utf8'));
    else notUtf8++;
  }
  return { entries: entries.filter((e) => valid.has(e.name)), notUtf8 };
}
