import { describe, expect, it } from 'vitest';
import { jsonText, StoredJson } from '../../../src/load/export/json-text.js';

describe('jsonText (export lines with stored JSON spliced verbatim)', () => {
  it('equals JSON.stringify for plain objects, arrays, scalars, undefined members and holes', () => {
    const value = {
      a: 'quote " and \\n newline \u2028 😀',
      b: [1, -0.5, true, null, undefined, { c: 'x' }],
      skipped: undefined,
      nested: { empty: {}, list: [] },
    };
    expect(jsonText(value)).toBe(JSON.stringify(value));
  });

  it('writes a StoredJson value as its text, unparsed', () => {
    expect(jsonText({ params: new StoredJson('{"b":1,"a":[2]}'), files: [new StoredJson('"f"')] })).toBe(
      '{"params":{"b":1,"a":[2]},"files":["f"]}',
    );
  });
});
