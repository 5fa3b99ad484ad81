/** The report's stylesheet, inlined into the page (light and dark schemes, print-friendly). */
export const REPORT_STYLE = `
:root { color-scheme: light dark; --fg: #1d2330; --muted: #5d6678; --bg: #ffffff; --panel: #f5f6f9;
  --line: #d9dde6; --accent: #3563d9; --bad: #c2412d; --user: #eef3ff; --assistant: #f7f7f2; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e9f0; --muted: #9aa3b5; --bg: #15181f; --panel: #1d212b;
  --line: #2f3543; --accent: #7ea1ff; --bad: #ff8a73; --user: #1c2640; --assistant: #22252c; } }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; align-items: baseline; gap: 24px; padding: 14px 24px; border-bottom: 1px solid var(--line); position: sticky; top: 0; background: var(--bg); z-index: 1; }
header h1 { font-size: 18px; margin: 0; }
nav a { margin-right: 16px; color: var(--muted); text-decoration: none; font-weight: 600; }
nav a[aria-current="page"] { color: var(--accent); border-bottom: 2px solid var(--accent); }
main { padding: 16px 24px 48px; max-width: 1100px; }
.note { background: var(--panel); border-left: 3px solid var(--accent); padding: 8px 12px; margin: 8px 0; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 10px; margin: 8px 0 16px; }
.card { background: var(--panel); border-radius: 6px; padding: 10px 12px; }
.card b { display: block; font-size: 20px; }
.card span { color: var(--muted); font-size: 12px; }
h2 { font-size: 16px; margin: 28px 0 6px; }
.source { color: var(--muted); font-size: 12px; margin: 0 0 8px; }
.chart { width: 100%; height: auto; display: block; margin: 4px 0 8px; }
.chart .bar { fill: var(--accent); }
.chart .grid { stroke: var(--line); stroke-width: 1; }
.chart text { fill: var(--muted); font-size: 11px; }
.chart .label { fill: var(--fg); }
.chart-empty { color: var(--muted); font-style: italic; }
table { border-collapse: collapse; width: 100%; margin: 4px 0 12px; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 12px; color: var(--muted); font-weight: 600; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
.filters { display: flex; gap: 10px; align-items: center; margin: 8px 0; flex-wrap: wrap; }
.filters input { flex: 1 1 320px; padding: 7px 10px; font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--line); border-radius: 6px; }
.filters select { padding: 6px; font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--line); border-radius: 6px; max-width: 360px; }
#session-table tbody tr { cursor: pointer; }
#session-table tbody tr:hover { background: var(--panel); }
.meta { color: var(--muted); }
.message { border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; margin: 10px 0; background: var(--assistant); }
.message.user { background: var(--user); }
.message-head { display: flex; gap: 10px; flex-wrap: wrap; font-size: 12px; color: var(--muted); margin-bottom: 6px; }
.message-head .role { font-weight: 700; color: var(--fg); text-transform: capitalize; }
.badge { border: 1px solid var(--line); border-radius: 10px; padding: 0 7px; }
.content, pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0; }
pre { font: 12px/1.4 ui-monospace, "SFMono-Regular", Menlo, monospace; background: var(--panel); padding: 8px; border-radius: 6px; }
details { margin: 6px 0; }
summary { cursor: pointer; color: var(--muted); font-weight: 600; }
details.tool.failed summary { color: var(--bad); }
.omitted { color: var(--muted); font-style: italic; font-size: 12px; }
@media print { header { position: static; } .filters { display: none; } }
`;
