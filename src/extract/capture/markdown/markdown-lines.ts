/** Line helpers shared by the Markdown parsers: fenced-code tracking, trimming, UTC minute stamps. */
import { readTimeField, type TimeProblem } from '../../../shared/time/read-instant.js';
import { NO_BLANK_RUNS } from './blank-runs.js';

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

export function trimBlock(lines: readonly string[], separators = false, runs = NO_BLANK_RUNS): string {
  const [start, end] = trimRange(lines, separators);
  return runs.join(lines.slice(start, end));
}

/**
 * `YYYY-MM-DD HH:mmZ` (explicit UTC) → epoch ms. Any other present text (a bare number included)
 * is not a time: it is recorded in `problems` as `field`.
 */
export function utcMinuteStamp(
  text: string | null | undefined,
  field: string,
  problems: TimeProblem[],
): number | null {
  const trimmed = text?.trim() ?? '';
  if (trimmed === '') return null;
  const match = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}Z)$/.exec(trimmed);
  if (match) return readTimeField(`${match[1]}T${match[2]}`, field, problems);
  problems.push({
    field,
    reason: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(trimmed) ? 'zoneless' : 'not-a-time',
  });
  return null;
}
