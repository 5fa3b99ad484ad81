/**
 * Finds `"<name>":"<value>"` in undecoded JSON bytes without parsing the document. A hit is only a
 * candidate (it may sit in a nested object): the transform keeps a link only once the decoded
 * document confirms it.
 */
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export function stringFieldValues(bytes: Uint8Array, name: string, maxLength: number): string[] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const needle = Buffer.from(`"${name}":"`, 'utf8');
  const values: string[] = [];
  for (let at = buffer.indexOf(needle); at !== -1; at = buffer.indexOf(needle, at + 1)) {
    const start = at + needle.length;
    const end = buffer.indexOf(QUOTE, start);
    if (end === -1 || end - start > maxLength) continue;
    const value = buffer.subarray(start, end);
    if (value.length > 0 && !value.includes(BACKSLASH)) values.push(value.toString('utf8'));
  }
  return values;
}
