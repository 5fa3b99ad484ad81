/**
 * The human summary of a run's diagnostics: each warning or error code once, with its count, what
 * it means and the one thing to do; info codes are only counted (`--json` lists every diagnostic).
 */
import { homedir } from 'node:os';
import type { Diagnostic, DiagnosticSeverity } from '../shared/diagnostic.js';
import { CATALOGUE } from '../shared/diagnostic-catalogue.js';
import { visibleText } from './visible-text.js';

const RANK: Record<DiagnosticSeverity, number> = { error: 0, warning: 1, info: 2 };

interface CodeTally {
  code: Diagnostic['code'];
  severity: DiagnosticSeverity;
  count: number;
  remedy: string;
}

/** Where default discovery looked, by the `root` detail of `SOURCE_ROOT_MISSING`. */
export type LookedAt = Readonly<Record<string, string>>;

function tally(diagnostics: readonly Diagnostic[]): CodeTally[] {
  const byCode = new Map<string, CodeTally>();
  for (const item of diagnostics) {
    const known = byCode.get(item.code);
    const remedy =
      typeof item.details.remedy === 'string' ? item.details.remedy : CATALOGUE[item.code].remedy;
    if (known === undefined) {
      byCode.set(item.code, { code: item.code, severity: item.severity, count: 1, remedy });
      continue;
    }
    known.count++;
    if (RANK[item.severity] < RANK[known.severity]) known.severity = item.severity;
  }
  return [...byCode.values()].sort(
    (a, b) => RANK[a.severity] - RANK[b.severity] || b.count - a.count || a.code.localeCompare(b.code),
  );
}

function homeRelative(path: string): string {
  const home = homedir();
  return path === home || path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

function lookedAtNote(tallied: CodeTally, diagnostics: readonly Diagnostic[], lookedAt: LookedAt): string {
  if (tallied.code !== 'SOURCE_ROOT_MISSING') return '';
  const places = diagnostics
    .filter((d) => d.code === 'SOURCE_ROOT_MISSING')
    .map((d) => lookedAt[String(d.details.root)])
    .filter((place): place is string => place !== undefined);
  return places.length === 0 ? '' : ` Looked at ${places.map(homeRelative).join(', ')}.`;
}

export function diagnosticDigest(diagnostics: readonly Diagnostic[], lookedAt: LookedAt = {}): string[] {
  const lines: string[] = [];
  let info = 0;
  for (const item of tally(diagnostics)) {
    if (item.severity === 'info') {
      info += item.count;
      continue;
    }
    const remedy = item.remedy + lookedAtNote(item, diagnostics, lookedAt);
    lines.push(`${item.severity} ${item.code} ×${item.count}: ${visibleText(CATALOGUE[item.code].meaning)}`);
    lines.push(`  → ${visibleText(remedy)}`);
  }
  if (info > 0) lines.push(`${info} info diagnostic${info === 1 ? '' : 's'} (--json lists them)`);
  return lines;
}
