/**
 * Runs of blank lines in a Markdown capture, each held as one line: a placeholder the parsers see
 * as one blank line, run-length encoded, and expanded to its exact text only where a turn keeps it.
 * A run at a turn boundary costs its count, whatever its length.
 */
import { SourceLimitExceeded } from '../../limits/limit-exceeded.js';

interface BlankLines {
  /** The line's text; null when it was longer than `jsonlRecordBytes` and not kept. */
  text: string | null;
  count: number;
}

interface BlankRun {
  lines: BlankLines[];
  count: number;
}

/**
 * A physical line never holds LF, so a placeholder (LF, then the run's number in spaces and tabs)
 * is never a line of the file, and it trims to empty as the blank lines it stands for.
 */
function placeholder(id: number): string {
  return `\n${id.toString(2).replace(/0/g, ' ').replace(/1/g, '\t')}`;
}

export class BlankRuns {
  private readonly runs = new Map<string, BlankRun>();

  constructor(private readonly recordBytes = Number.MAX_SAFE_INTEGER) {}

  /** A line standing for `run` (its lines in order, equal neighbours merged). */
  add(lines: BlankLines[]): string {
    const key = placeholder(this.runs.size);
    this.runs.set(key, { lines, count: lines.reduce((sum, line) => sum + line.count, 0) });
    return key;
  }

  /** The physical lines `line` stands for: a run's count, else 1. */
  weight(line: string): number {
    return line.charCodeAt(0) === 0x0a ? (this.runs.get(line)?.count ?? 1) : 1;
  }

  /** The exact text of `line`: a run's lines joined by LF, else the line itself. */
  expand(line: string): string {
    if (line.charCodeAt(0) !== 0x0a) return line;
    const run = this.runs.get(line);
    if (run === undefined) return line;
    return run.lines
      .map(({ text, count }) => {
        // Kept as message text, a blank line over the record bound is a record over it.
        if (text === null)
          throw new SourceLimitExceeded('jsonlRecordBytes', this.recordBytes, this.recordBytes + 1);
        return `${text}\n`.repeat(count - 1) + text;
      })
      .join('\n');
  }

  /** `lines` joined by LF with every run expanded. */
  join(lines: readonly string[]): string {
    return lines.map((line) => this.expand(line)).join('\n');
  }
}

/** No runs: the parsers' lines are the physical lines themselves. */
export const NO_BLANK_RUNS = new BlankRuns();
