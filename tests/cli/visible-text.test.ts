import { describe, expect, it } from 'vitest';
import { formatTable, StreamedTable } from '../../src/cli/format-table.js';
import { terminalSafeJson, visibleLines, visibleText } from '../../src/cli/visible-text.js';

/** Every character a terminal acts on: C0, DEL, C1 and the bidirectional controls. */
const CONTROLS = [
  ...Array.from({ length: 0x20 }, (_, i) => i),
  ...Array.from({ length: 0x21 }, (_, i) => 0x7f + i),
  0x200e,
  0x200f,
  ...Array.from({ length: 5 }, (_, i) => 0x202a + i),
  ...Array.from({ length: 4 }, (_, i) => 0x2066 + i),
].map((code) => String.fromCodePoint(code));

const ACTING = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('terminal control characters from the data print visibly in query tables', () => {
  it.each(CONTROLS.map((c) => [c.codePointAt(0)!.toString(16), c]))(
    'U+%s never reaches the terminal raw',
    (_, c) => {
      for (const text of [c, `a${c}b`, `${c}${c}[2J`, `\u001b]0;title${c}\u0007`]) {
        const lines = formatTable(['x'], [{ x: text }]).split('\n');
        expect(lines).toHaveLength(4);
        for (const line of lines) expect(line).not.toMatch(ACTING);
        expect(visibleText(text)).not.toMatch(ACTING);
      }
    },
  );

  it('clear-screen and OSC title sequences show as text; column names too', () => {
    const table = formatTable(['t\u001b[31m'], [{ 't\u001b[31m': '\u001b[2J\u001b]0;pwned\u0007x' }]);
    expect(table).toContain('\\e[2J\\e]0;pwned\\x07x');
    expect(table.split('\n')[0]).toBe('t\\e[31m');
  });

  it('plain text, unicode and whitespace are unchanged (whitespace runs still fold to one space)', () => {
    expect(visibleText('héllo — 日本 🙂')).toBe('héllo — 日本 🙂');
    expect(formatTable(['x'], [{ x: 'a\n\tb' }]).split('\n')[2]).toBe('a b');
  });
});

describe('whole human outputs and JSON outputs carry no acting character', () => {
  it('visibleLines keeps line feeds only', () => {
    expect(visibleLines('a\u001b[2J\nb\r\u202ec\u0085')).toBe('a\\e[2J\nb\\r\\u202ec\\x85');
    for (const c of CONTROLS.filter((x) => x !== '\n')) expect(visibleLines(`x${c}`)).not.toMatch(ACTING);
  });

  it('terminalSafeJson is the same JSON value with no raw C1, DEL, bidi or line separator', () => {
    const value = { s: CONTROLS.join(''), 'k\u009b': '\u2028\u2029\u061c' };
    const text = terminalSafeJson(JSON.stringify(value));
    expect(text).not.toMatch(ACTING);
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('a table printed page by page', () => {
  it('matches the whole table when the first page sets the widths', () => {
    const rows = Array.from({ length: 5 }, (_, i) => ({ a: `v${i}`, b: i === 4 ? 'x\u001b' : null }));
    const table = new StreamedTable(['a', 'b']);
    const text = table.page(rows.slice(0, 3)) + table.page([]) + table.page(rows.slice(3)) + table.end();
    expect(text).toBe(formatTable(['a', 'b'], rows));
    for (const line of text.split('\n')) expect(line).not.toMatch(ACTING);
    expect(text).toContain('x\\e');
  });
});
