/** Line helpers shared by the Markdown parsers: fenced-code tracking, trimming, UTC minute stamps. */
import { instantOrNull } from '../../../shared/time/read-instant.js';

/** For each line, whether it sits inside (or opens/closes) a fenced code block. */
export function fencedMask(lines: readonly string[]): boolean[] {
  const mask: boolean[] = [];
  let fence: { char: string; length: number } | null = null;
  for (const line of lines) {
    const match = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === null) {
      if (match) fence = { char: match[1]![0]!, length: match[1]!.length };
      mask.push(match !== null);
    } else {
      mask.push(true);
      const run = match?.[1];
      if (run && run[0] === fence.char && run.length >= fence.length && line.trim() === run) fence = null;
    }
  }
  return mask;
}

/** The range left after dropping leading/trailing blank lines (and trailing `---` when `separators`). */
export function trimRange(lines: readonly string[], separators = false): [number, number] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start]!.trim() === '') start++;
  for (;;) {
    while (end > start && lines[end - 1]!.trim() === '') end--;
    if (separators && end > start && lines[end - 1]!.trim() === '---') end--;
    else break;
  }
  return [start, end];
}

export function trimBlock(lines: readonly string[], separators = false): string {
  const [start, end] = trimRange(lines, separators);
  return lines.slice(start, end).join('\n');
}

/** `YYYY-MM-DD HH:mmZ` (explicit UTC) → epoch ms; anything else is not a time this file states. */
export function utcMinuteStamp(text: string | null | undefined): number | null {
  const match = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}Z)$/.exec(text?.trim() ?? '');
  return match ? instantOrNull(`${match[1]}T${match[2]}`) : null;
}
