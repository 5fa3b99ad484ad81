/**
 * The report's HTML outside the session blocks: head (with a Content-Security-Policy that admits no
 * network and only the page's own script), the overview with its charts, and the sessions list.
 */
import { createHash } from 'node:crypto';
import { bucketActivity, bucketSize, type DayActivity } from './activity-buckets.js';
import { escapeHtml, formatCost, formatCount } from './html-text.js';
import { RANKING_ROWS, type ReportFigures } from './report-data.js';
import { REPORT_SCRIPT } from './report-script.js';
import { REPORT_STYLE } from './report-style.js';
import { barChart, columnChart } from './svg-chart.js';

type Row = Record<string, unknown>;

export interface PageNotes {
  redacted: boolean;
  listedSessions: number;
  totalSessions: number;
  maxSessions: number;
}

const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));
const cell = (value: unknown): string =>
  value === null || value === undefined ? '' : escapeHtml(typeof value === 'string' ? value : String(value));
const countCell = (value: unknown): string =>
  value === null || value === undefined
    ? '<td class="n">–</td>'
    : `<td class="n">${formatCount(num(value))}</td>`;

function table(headers: readonly string[], numeric: ReadonlySet<number>, body: string[]): string {
  const head = headers
    .map((h, i) => `<th${numeric.has(i) ? ' class="n"' : ''}>${escapeHtml(h)}</th>`)
    .join('');
  return `<table><thead><tr>${head}</tr></thead><tbody>${body.join('')}</tbody></table>`;
}

/** A ranking's rows (at most RANKING_ROWS) and a line saying when there are more. */
function ranked(rows: readonly Row[]): { rows: Row[]; more: string } {
  return rows.length > RANKING_ROWS
    ? { rows: rows.slice(0, RANKING_ROWS), more: `<p class="source">The top ${RANKING_ROWS} are shown.</p>` }
    : { rows: [...rows], more: '' };
}

export function pageHead(): string {
  const hash = createHash('sha256').update(REPORT_SCRIPT, 'utf8').digest('base64');
  const policy = `default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'sha256-${hash}'`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<title>Cursor history report</title>
<style>${REPORT_STYLE}</style></head>
<body><header><h1>Cursor history report</h1><nav>
<a href="#overview" data-view="overview">Overview</a><a href="#sessions" data-view="sessions">Sessions</a>
</nav></header>
<main>`;
}

function notes(figures: ReportFigures, page: PageNotes): string {
  const out: string[] = [];
  if (page.redacted)
    out.push('This warehouse is redacted: secrets show as the placeholders the warehouse stores.');
  if (page.listedSessions < page.totalSessions)
    out.push(
      `The sessions list and session views hold the ${formatCount(page.listedSessions)} most recently updated of ${formatCount(page.totalSessions)} sessions (--max-sessions ${page.maxSessions}); the overview counts them all.`,
    );
  const unknown = num(figures.totals.messages_unknown_time);
  if (unknown > 0)
    out.push(
      `${formatCount(unknown)} messages have no known time: they are counted but not drawn over time.`,
    );
  return out.map((n) => `<p class="note" role="note">${escapeHtml(n)}</p>`).join('');
}

function totals(t: Row): string {
  const cards: [string, string][] = [
    ['sessions', formatCount(num(t.sessions))],
    ['messages', formatCount(num(t.messages))],
    ['tool calls', formatCount(num(t.tool_calls))],
    ['workspaces', formatCount(num(t.workspaces))],
    ['first activity', cell(t.first_activity ?? 'unknown').slice(0, 10)],
    ['last activity', cell(t.last_activity ?? 'unknown').slice(0, 10)],
  ];
  return `<div class="cards">${cards.map(([label, value]) => `<div class="card"><b>${value}</b><span>${label}</span></div>`).join('')}</div>`;
}

function activity(rows: readonly Row[]): string {
  const days: DayActivity[] = rows.map((r) => ({
    day: String(r.day),
    sessions: num(r.sessions),
    messages: num(r.messages),
    toolCalls: num(r.tool_calls),
  }));
  const size = bucketSize(days);
  const buckets = bucketActivity(days, size);
  const messages = columnChart(
    buckets.map((b) => ({
      label: b.label,
      value: b.messages,
      note: `${formatCount(b.toolCalls)} tool calls`,
    })),
    { title: `Messages per ${size}`, unit: 'messages' },
  );
  const sessions = columnChart(
    buckets.map((b) => ({ label: b.label, value: b.sessionDays })),
    { title: `Active sessions per ${size}`, unit: 'session-days' },
  );
  return `<section id="activity"><h2>Activity over time</h2>
<p class="source">Messages per ${size} (UTC), from v_daily_activity.</p>${messages}
<p class="source">Sessions active per ${size} (a session active on several days counts on each).</p>${sessions}</section>`;
}

const currencyLabel = (currency: unknown): string =>
  currency === null || currency === undefined ? 'unpriced' : String(currency);

/** One line: the cost per currency (never added across currencies) and how many rows no price covers. */
function costLine(figures: ReportFigures): string {
  if (!figures.tables.usage) return '';
  if (!figures.tables.prices)
    return '<p class="source">No price table: tokens only. Import one with <code>etl prices import FILE</code> to see cost.</p>';
  const priced = figures.costs.filter((r) => r.currency !== null && r.currency !== undefined);
  const parts = priced.map((r) => `${formatCost(num(r.cost))} ${String(r.currency)}`);
  const unpriced = num(figures.costs.find((r) => r.currency === null)?.records);
  if (unpriced > 0) parts.push(`${formatCount(unpriced)} usage records unpriced`);
  return `<p class="source" id="cost-total">Cost from v_usage_cost: ${escapeHtml(parts.join('; '))}.</p>`;
}

function models(figures: ReportFigures): string {
  const { rows, more } = ranked(figures.models);
  const fromUsage = figures.tables.usage;
  const costed = figures.tables.prices;
  const label = (r: Row): string =>
    [
      String(r.model),
      ...(fromUsage ? [String(r.measurement)] : []),
      ...(costed ? [currencyLabel(r.currency)] : []),
    ].join(' · ');
  const chart = barChart(
    rows.map((r) => ({ label: label(r), value: num(r.input_tokens) + num(r.output_tokens) })),
    { title: 'Tokens per model', unit: 'tokens (input + output)' },
  );
  const source = fromUsage
    ? 'From the usage table; measured, estimated and derived counts are kept apart.'
    : 'From per-message token counts (this warehouse has no usage table); a missing count is not zero.';
  const costCells = (r: Row): string =>
    costed
      ? `<td>${escapeHtml(currencyLabel(r.currency))}</td>${r.cost === null || r.cost === undefined ? '<td class="n">–</td>' : `<td class="n">${formatCost(num(r.cost))}</td>`}`
      : '';
  const body = rows.map(
    (r) =>
      `<tr><td>${cell(r.model)}</td><td>${cell(r.measurement)}</td>${countCell(r.records)}${countCell(r.sessions)}${countCell(r.input_tokens)}${countCell(r.output_tokens)}${countCell(r.cache_read_tokens)}${countCell(r.cache_write_tokens)}${costCells(r)}</tr>`,
  );
  const headers = ['model', 'measurement', fromUsage ? 'records' : 'messages', 'sessions', 'input', 'output'];
  const extra = costed ? ['currency', 'cost'] : [];
  const numeric = new Set(costed ? [2, 3, 4, 5, 6, 7, 9] : [2, 3, 4, 5, 6, 7]);
  const title = costed ? 'Usage per model (tokens and cost)' : 'Usage per model (tokens)';
  return `<section id="models"><h2>${title}</h2><p class="source">${escapeHtml(source)}</p>${costLine(figures)}${chart}
${table([...headers, 'cache read', 'cache write', ...extra], numeric, body)}${more}</section>`;
}

function files(figures: ReportFigures): string {
  const { rows, more } = ranked(figures.files);
  const edits = figures.tables.fileEdits;
  const unit = edits ? 'edits' : 'tool calls';
  const chart = barChart(
    rows.map((r) => ({
      label: String(r.file),
      value: num(r.count),
      note: `${formatCount(num(r.sessions))} sessions`,
    })),
    { title: 'Most-touched files', unit },
  );
  const source = edits
    ? 'Files changed, from the file_edits table.'
    : 'Files named by tool calls (read, edited, searched), from v_file_touches.';
  const body = rows.map(
    (r) =>
      `<tr><td>${cell(r.file)}</td>${countCell(r.count)}${countCell(r.sessions)}${countCell(r.lines_added)}${countCell(r.lines_removed)}</tr>`,
  );
  return `<section id="files"><h2>Most-touched files</h2><p class="source">${source}</p>${chart}
${table(['file', unit, 'sessions', 'lines added', 'lines removed'], new Set([1, 2, 3, 4]), body)}${more}</section>`;
}

function workspaces(figures: ReportFigures): string {
  const { rows, more } = ranked(figures.workspaces);
  const chart = barChart(
    rows.map((r) => ({ label: String(r.workspace), value: num(r.sessions) })),
    { title: 'Sessions per workspace', unit: 'sessions' },
  );
  const body = rows.map(
    (r) =>
      `<tr><td>${cell(r.workspace)}</td>${countCell(r.sessions)}${countCell(r.messages)}${countCell(r.tool_calls)}${countCell(r.edits)}</tr>`,
  );
  return `<section id="workspaces"><h2>Workspaces</h2><p class="source">Sessions per workspace, from v_workspace_activity.</p>${chart}
${table(['workspace', 'sessions', 'messages', 'tool calls', 'file edits'], new Set([1, 2, 3, 4]), body)}${more}</section>`;
}

const rate = (failed: number, calls: number): string =>
  calls === 0 ? '–' : `${((failed / calls) * 100).toFixed(1)}%`;

function tools(figures: ReportFigures): string {
  const { rows, more } = ranked(figures.tools);
  const chart = barChart(
    rows.map((r) => ({
      label: String(r.tool),
      value: num(r.calls),
      note: `${formatCount(num(r.failed))} failed (${rate(num(r.failed), num(r.calls))})`,
    })),
    { title: 'Tool calls per tool', unit: 'calls' },
  );
  const body = rows.map(
    (r) =>
      `<tr><td>${cell(r.tool)}</td>${countCell(r.calls)}${countCell(r.failed)}<td class="n">${rate(num(r.failed), num(r.calls))}</td>${countCell(r.sessions)}</tr>`,
  );
  return `<section id="tools"><h2>Tool usage and error rates</h2><p class="source">A call failed when its status is error or it stored an error, from v_tool_calls.</p>${chart}
${table(['tool', 'calls', 'failed', 'error rate', 'sessions'], new Set([1, 2, 3, 4]), body)}${more}</section>`;
}

export function overview(figures: ReportFigures, page: PageNotes): string {
  return `${notes(figures, page)}<section id="view-overview" class="view">${totals(figures.totals)}${activity(figures.activity)}
${models(figures)}${files(figures)}${workspaces(figures)}${tools(figures)}</section>`;
}

const lower = (value: unknown): string =>
  (value === null || value === undefined ? '' : String(value)).toLowerCase();

/** The sessions table; each row's `data-search` holds its title, workspace, ID and models in lower case. */
export function sessionsView(rows: readonly Row[]): string {
  const workspaceNames = [...new Set(rows.map((r) => String(r.workspace)))].sort();
  const options = workspaceNames
    .map((w) => `<option value="${escapeHtml(w)}">${escapeHtml(w)}</option>`)
    .join('');
  const body = rows.map((r, i) => {
    const models = Array.isArray(r.models) ? r.models.map(String) : [];
    const search = [r.title, r.workspace, r.session_id, ...models].map(lower).join(' ');
    return `<tr data-session="${i}" data-workspace="${cell(r.workspace)}" data-search="${escapeHtml(search)}">
<td><a href="#session/${i}">${cell(r.title ?? '(untitled)')}</a></td><td>${cell(r.workspace)}</td>
<td>${cell(r.updated_at ?? 'unknown')}</td>${countCell(r.message_count)}${countCell(r.tool_call_count)}
${countCell(r.input_tokens)}${countCell(r.output_tokens)}<td>${cell(models.join(', '))}</td></tr>`;
  });
  return `<section id="view-sessions" class="view" hidden><h2>Sessions</h2>
<div class="filters"><input id="session-search" type="search" placeholder="Search title, workspace, model or ID" aria-label="Search sessions">
<select id="workspace-filter" aria-label="Workspace"><option value="">All workspaces</option>${options}</select>
<span id="session-count" class="meta"></span></div>
<table id="session-table"><thead><tr><th>title</th><th>workspace</th><th>updated</th><th class="n">messages</th>
<th class="n">tool calls</th><th class="n">input tokens</th><th class="n">output tokens</th><th>models</th></tr></thead>
<tbody>${body.join('')}</tbody></table></section>
<section id="view-session" class="view" hidden><p><a href="#sessions">← All sessions</a></p><div id="session-view"></div></section>
</main>`;
}

export function pageEnd(): string {
  return `<script>${REPORT_SCRIPT}</script></body></html>\n`;
}
