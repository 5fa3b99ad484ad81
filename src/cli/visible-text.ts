/**
 * Text from the warehouse made safe to print on a terminal: control characters (C0, DEL, C1), the
 * bidirectional controls and the Unicode line separators are shown as visible escapes instead of
 * acting on the terminal, so a stored `ESC [2J` or an OSC title sequence prints as text.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same set but the line feed, for whole human outputs whose lines are laid out by the CLI. */
const CONTROL_BUT_NEWLINE =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** What JSON.stringify leaves raw inside strings yet a terminal acts on. */
const RAW_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escapeOf(char: string): string {
  const code = char.codePointAt(0)!;
  if (code === 0x0a) return '\\n';
  if (code === 0x09) return '\\t';
  if (code === 0x0d) return '\\r';
  if (code === 0x1b) return '\\e';
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`;
}

export function visibleText(text: string): string {
  return text.replace(CONTROL, escapeOf);
}

/** A human output of several lines: every control character but the line feed shows as an escape. */
export function visibleLines(text: string): string {
  return text.replace(CONTROL_BUT_NEWLINE, escapeOf);
}

/**
 * JSON text with the characters JSON.stringify leaves raw written as `\uXXXX` escapes: the same
 * JSON value, safe on a terminal. They can only occur inside strings, where the escape is exact.
 */
export function terminalSafeJson(json: string): string {
  return json.replace(RAW_IN_JSON, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
