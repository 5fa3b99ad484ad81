/**
 * Cursor editor "Export Chat" Markdown: `# title`, `_Exported on <locale date> from Cursor (x.y.z)_`,
 * then turns introduced by `---` + a `**User**`/`**Cursor**` line. A `---` is a boundary only when
 * the next non-blank line is a role line, and never inside fenced code.
 */
import { type BlankRuns, NO_BLANK_RUNS } from './blank-runs.js';
import type { MarkdownDocument, MarkdownTurn } from './markdown-document.js';
import { fencedMask, trimRange } from './markdown-lines.js';
import { markdownContentSessionId } from './markdown-session-id.js';

const ROLE_LINES: Record<string, 'user' | 'assistant'> = { '**User**': 'user', '**Cursor**': 'assistant' };

function countElisions(lines: readonly string[], fenced: readonly boolean[], blanks: BlankRuns): number {
  let runs = 0;
  let blank = 0;
  lines.forEach((line, i) => {
    if (line.trim() === '' && !fenced[i]) blank += blanks.weight(line);
    else {
      if (blank >= 2) runs++;
      blank = 0;
    }
  });
  return runs;
}

/** `runs`: the blank runs some of `lines` stand for (`readMarkdownDocument`). */
export function parseExportChat(lines: readonly string[], runs = NO_BLANK_RUNS): MarkdownDocument {
  const fenced = fencedMask(lines);
  const titleIndex = lines.findIndex((line) => line.startsWith('# '));
  const title = titleIndex === -1 ? null : lines[titleIndex]!.slice(2).trim();
  const exported = lines
    .map((line) => /^_Exported on (.*) from Cursor \(([^)]*)\)_\s*$/.exec(line))
    .find((match) => match !== null);
  const roleAt = (i: number): 'user' | 'assistant' | undefined =>
    fenced[i] ? undefined : ROLE_LINES[lines[i]!.trim()];
  const nextNonBlank = (from: number): number => {
    let i = from;
    while (i < lines.length && lines[i]!.trim() === '') i++;
    return i;
  };
  const starts: number[] = [];
  lines.forEach((line, i) => {
    if (!fenced[i] && line.trim() === '---' && roleAt(nextNonBlank(i + 1)) !== undefined)
      starts.push(nextNonBlank(i + 1));
  });
  const turns: MarkdownTurn[] = starts.map((roleLine, section) => {
    const end = section + 1 < starts.length ? starts[section + 1]! : lines.length;
    const body = lines.slice(roleLine + 1, end);
    const [from, to] = trimRange(body, true);
    const role = roleAt(roleLine)!;
    const text = runs.join(body.slice(from, to));
    return {
      role,
      section,
      line: roleLine,
      text,
      thinking: null,
      unterminatedThinking: 0,
      writtenText: text,
      annotation: null,
      stampedAtMs: null,
      timeProblems: [],
      model: null,
      mode: null,
      tools: [],
      elisions:
        role === 'assistant'
          ? countElisions(body.slice(from, to), fenced.slice(roleLine + 1 + from, roleLine + 1 + to), runs)
          : 0,
    };
  });
  return {
    surface: 'export-chat',
    generation: 'export-chat',
    sessionId: markdownContentSessionId('export-chat', title, turns),
    sessionIdOrigin: 'content-v1',
    title,
    opaqueDates: exported ? [exported[1]!] : [],
    declaredAtMs: null,
    timeProblems: [],
    appVersion: exported?.[2] ?? null,
    formatVersion: null,
    harness: 'cursor',
    turns,
    emptyUserTurns: 0,
  };
}
