/**
 * SpecStory renders thinking as `<think><details><summary>Thought
 * Process</summary>…</details></think>` (or the `<details>` block alone): outside fenced code and
 * when closed, it is the message's thinking, not its text; a `---` separator left with an empty
 * step is dropped.
 */
import { NO_BLANK_RUNS } from './blank-runs.js';

export interface SplitTurn {
  lines: string[];
  thinking: string | null;
  /** Blocks that open but never close: left as message text. */
  unterminated: number;
}

const THOUGHT_SUMMARY = '<details><summary>Thought Process</summary>';

interface Opening {
  at: number;
  closing: string;
}

/** The first thinking block opening on this line from `from`, or null when none does. */
function opening(line: string, from: number): Opening | null {
  const think = line.indexOf('<think>', from);
  const summary = line.indexOf(THOUGHT_SUMMARY, from);
  if (think === -1 && summary === -1) return null;
  if (summary === -1 || (think !== -1 && think < summary)) return { at: think, closing: '</think>' };
  return { at: summary, closing: '</details>' };
}

function blockText(block: string): string {
  return block
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

/** Text around a block on its first and last lines stays message text, on one line. */
function joinAround(before: string, after: string): string {
  const head = before.trimEnd();
  const tail = after.trimStart();
  return head.length > 0 && tail.length > 0 ? `${head} ${tail}` : head + tail;
}

export function splitThinking(
  lines: readonly string[],
  fenced: readonly boolean[],
  runs = NO_BLANK_RUNS,
): SplitTurn {
  const rest = [...lines];
  const restFenced = [...fenced];
  const kept: string[] = [];
  const keptFenced: boolean[] = [];
  const thinking: string[] = [];
  let unterminated = 0;
  let i = 0;
  let from = 0;
  while (i < rest.length) {
    const line = rest[i]!;
    const open = restFenced[i] ? null : opening(line, from);
    let endLine = -1;
    let endAt = -1;
    if (open !== null)
      for (let j = i; j < rest.length && endLine === -1; j++) {
        const found = rest[j]!.indexOf(open.closing, j === i ? open.at + 1 : 0);
        if (found !== -1) [endLine, endAt] = [j, found + open.closing.length];
      }
    if (open !== null && endLine !== -1) {
      const block =
        endLine === i
          ? line.slice(open.at, endAt)
          : runs.join([line.slice(open.at), ...rest.slice(i + 1, endLine), rest[endLine]!.slice(0, endAt)]);
      const text = blockText(block);
      if (text.length > 0) thinking.push(text);
      const around = joinAround(line.slice(0, open.at), rest[endLine]!.slice(endAt));
      rest.splice(i, endLine - i + 1, around);
      restFenced.splice(i, endLine - i + 1, false);
      from = line.slice(0, open.at).trimEnd().length;
      if (around.trim().length === 0) {
        rest.splice(i, 1);
        restFenced.splice(i, 1);
        from = 0;
      }
      continue;
    }
    if (open !== null) unterminated++;
    kept.push(line);
    keptFenced.push(restFenced[i] ?? false);
    i++;
    from = 0;
  }
  if (thinking.length === 0) return { lines: [...lines], thinking: null, unterminated };
  return { lines: dropEmptySteps(kept, keptFenced), thinking: thinking.join('\n\n'), unterminated };
}
