/**
 * JSON text of an export line in which stored JSON columns are spliced in as they are stored.
 * Parsing them back only to stringify them again costs a copy and overflows the stack on the
 * deeply nested values the pipeline accepts (JSON.stringify recurses; canonical JSON does not).
 */

/** A value already serialized as JSON text (a warehouse `json` column). */
export class StoredJson {
  constructor(readonly text: string) {}
}

/** JSON.stringify's output for the plain objects, arrays and scalars of a line, with `StoredJson` verbatim. */
export function jsonText(value: unknown): string {
  if (value instanceof StoredJson) return value.text;
  if (Array.isArray(value))
    return `[${value.map((item) => (item === undefined ? 'null' : jsonText(item))).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const members: string[] = [];
    for (const [key, member] of Object.entries(value))
      if (member !== undefined) members.push(`${JSON.stringify(key)}:${jsonText(member)}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}
