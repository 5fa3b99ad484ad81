/**
 * Node decodes entry names with U+FFFD for invalid bytes, so a non-UTF-8 name lists as a path that
 * does not exist. When a listed name holds U+FFFD the raw names are read again: UTF-8 ones are
 * kept, the others counted, never guessed.
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
