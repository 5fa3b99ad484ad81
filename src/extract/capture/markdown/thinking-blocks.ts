/**
 * SpecStory renders thinking as `<think><details><summary>Thought
 * Process</summary>…</details></think>` (or the `<details>` block alone): outside fenced code and
 * when closed, it is the message's thinking, not its text; a `---` separator left with an empty
 * step is dropped.
 */

export interface SplitTurn {
  lines: string[];
  thinking: string | null;
}

const THOUGHT_SUMMARY = '<details><summary>Thought Process</summary>';

/** The closing tag of a thinking block opening on this line, or null when none opens here. */
function opensBlock(line: string): string | null {
  const trimmed = line.trim();
  if (trimmed.startsWith('<think>')) return '</think>';
  if (trimmed.startsWith(THOUGHT_SUMMARY)) return '</details>';
  return null;
}

function blockText(lines: readonly string[]): string {
  return lines
    .join('\n')
    .replace(/<\/?think>/g, '')
    .replace(THOUGHT_SUMMARY, '')
    .replace(/<\/details>\s*$/, '')
    .trim();
}

/** Drops separators that no longer delimit anything (leading, or after an emptied step). */
function dropEmptySteps(lines: readonly string[], fenced: readonly boolean[]): string[] {
  const out: string[] = [];
  let stepHasText = false;
  lines.forEach((line, i) => {
    if (!fenced[i] && line.trim() === '---') {
      if (!stepHasText) {
        while (out.length > 0 && out[out.length - 1]!.trim() === '') out.pop();
        return;
      }
      stepHasText = false;
    } else if (line.trim() !== '') stepHasText = true;
    out.push(line);
  });
  return out;
}

export function splitThinking(lines: readonly string[], fenced: readonly boolean[]): SplitTurn {
  const kept: string[] = [];
  const keptFenced: boolean[] = [];
  const thinking: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const closing = fenced[i] ? null : opensBlock(lines[i]!);
    const end =
      closing === null ? -1 : lines.findIndex((line, j) => j >= i && line.includes(closing, j === i ? 1 : 0));
    if (end === -1) {
      kept.push(lines[i]!);
      keptFenced.push(fenced[i] ?? false);
      i++;
      continue;
    }
    const text = blockText(lines.slice(i, end + 1));
    if (text.length > 0) thinking.push(text);
    i = end + 1;
  }
  if (thinking.length === 0) return { lines: [...lines], thinking: null };
  return { lines: dropEmptySteps(kept, keptFenced), thinking: thinking.join('\n\n') };
}
