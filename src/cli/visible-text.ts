/**
 * Text from the warehouse made safe to print on a terminal: control characters (C0, DEL, C1) and
 * the bidirectional overrides are shown as visible escapes instead of acting on the terminal, so a
 * stored `ESC [2J` or an OSC title sequence prints as text.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

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
