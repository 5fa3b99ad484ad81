/**
 * `etl doctor`: where Cursor data was looked for and found, what each layout generation holds
 * (sessions, messages, blobs from catalogs and key ranges), what could not be read and why, version
 * hints, and, with `--target`, the gaps between the sources and the warehouse. Never payload text.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  DOCTOR_REPORT,
  type DoctorLayout,
  type DoctorReport,
  type DoctorRoot,
} from '../../../schemas/doctor-report.js';
import {
  currentEnvironment,
  type DataRootEnvironment,
  dataRootCandidates,
} from '../../extract/data-roots.js';
import { createReadContext } from '../../extract/read-context.js';
import { type InventoryRoot, inventoryRoot, type RootInventory } from '../../extract/root-inventory.js';
import { agentHomeExtras } from '../../extract/source-probe.js';
import { runQuery } from '../../load/duckdb/read-only-query.js';
import { assertCurrentSchema } from '../../load/duckdb/warehouse-version.js';
import { withReadOnlyTarget } from '../../load/read-only-target.js';
import { CATALOGUE, type Code } from '../../shared/diagnostic-catalogue.js';
import { PrivateTempDir } from '../../shared/temp/private-temp-dir.js';
import type { Output } from '../output.js';
import { type RunFlags, resolveRunFlags } from '../run-options.js';
import { parseTargetSpec } from '../target-spec.js';

const GAP_IDS_SHOWN = 20;

const LAST_RUN_PROBLEMS_SQL = `SELECT code, count(*)::INTEGER AS n FROM diagnostics
  WHERE run_id = (SELECT run_id FROM etl_runs WHERE status = 'committed' ORDER BY started_at DESC, run_id DESC LIMIT 1)
  GROUP BY code ORDER BY code`;

type PlannedRoot = Omit<DoctorRoot, 'sessions' | 'layouts' | 'extras' | 'read'> & { read: boolean };

/** Named roots replace discovery, as in `etl run`; otherwise every candidate, found or not. */
function plannedRoots(
  named: { userDir: string | null; storeRoot: string | null } | null,
  inputs: readonly string[],
  environment: DataRootEnvironment,
): PlannedRoot[] {
  const roots: PlannedRoot[] = [];
  if (named === null) {
    for (const c of dataRootCandidates(environment)) roots.push({ ...c, read: c.found });
  } else {
    for (const [kind, path] of [
      ['ide-user', named.userDir],
      ['agent-home', named.storeRoot],
    ] as const) {
      if (path === null) continue;
      const found = existsSync(path);
      roots.push({ kind, origin: 'named', build: null, path, found, read: found });
    }
  }
  for (const path of inputs) {
    const found = existsSync(path);
    roots.push({ kind: 'input', origin: 'input', build: null, path, found, read: found });
  }
  return roots;
}

function mergeLayouts(layouts: readonly DoctorLayout[]): DoctorLayout[] {
  const merged = new Map<string, DoctorLayout>();
  const plus = (a: number | null, b: number | null) =>
    a === null && b === null ? null : (a ?? 0) + (b ?? 0);
  for (const layout of layouts) {
    const key = `${layout.sourceKind}\u0000${layout.generation}`;
    const known = merged.get(key);
    merged.set(
      key,
      known === undefined
        ? { ...layout }
        : {
            ...known,
            sources: known.sources + layout.sources,
            sessions: known.sessions + layout.sessions,
            messages: plus(known.messages, layout.messages),
            blobs: plus(known.blobs, layout.blobs),
            unlinkedBlobs: plus(known.unlinkedBlobs, layout.unlinkedBlobs),
            runs: plus(known.runs, layout.runs),
            unreadable: known.unreadable + layout.unreadable,
          },
    );
  }
  return [...merged.values()].sort((a, b) =>
    `${a.sourceKind} ${a.generation}` < `${b.sourceKind} ${b.generation}` ? -1 : 1,
  );
}

async function warehouseGaps(
  target: string,
  sourceIds: ReadonlySet<string>,
): Promise<DoctorReport['warehouse']> {
  const location = parseTargetSpec(target);
  const { archived, lastRun } = await withReadOnlyTarget(location, async (connection) => {
    await assertCurrentSchema(connection);
    const rows = (await runQuery(connection, 'SELECT session_id FROM sessions')).rows;
    return {
      archived: new Set(rows.map((row) => String(row.session_id))),
      lastRun: (await runQuery(connection, LAST_RUN_PROBLEMS_SQL)).rows,
    };
  });
  const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const notArchived = [...sourceIds].filter((id) => !archived.has(id)).sort(byCodePoint);
  const gone = [...archived].filter((id) => !sourceIds.has(id)).sort(byCodePoint);
  return {
    target: location.kind,
    archived: archived.size,
    inSourcesNotArchived: notArchived.length,
    archivedButGone: gone.length,
    notArchivedIds: notArchived.slice(0, GAP_IDS_SHOWN),
    goneIds: gone.slice(0, GAP_IDS_SHOWN),
    lastRunProblems: lastRun.map((row) => ({ code: String(row.code), count: Number(row.n) })),
  };
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

function layoutLine(l: DoctorLayout): string {
  const parts = [`${l.sources} source(s)`, `${l.sessions} session occurrence(s)`];
  if (l.messages !== null) parts.push(`${l.messages} message(s)`);
  if (l.runs !== null) parts.push(`${l.runs} run(s)`);
  if (l.blobs !== null) parts.push(`${l.blobs} blob(s)`);
  if (l.unlinkedBlobs !== null) parts.push(`${l.unlinkedBlobs} unlinked message blob(s)`);
  if (l.unreadable > 0) parts.push(`${l.unreadable} unreadable`);
  return `  ${l.sourceKind} / ${l.generation}: ${parts.join(', ')}`;
}

function humanReport(report: DoctorReport): string {
  const lines = ['Data roots (where etl looked):'];
  for (const r of report.roots) {
    const build = r.build === 'insiders' ? ' (Insiders)' : '';
    const sessions = r.read ? `${r.sessions} session(s)` : '';
    lines.push(
      `  ${pad(r.found ? 'found' : 'absent', 7)}${pad(r.kind, 14)}${pad(r.origin + build, 24)}${pad(sessions, 14)}${r.path}`,
    );
    if (r.extras?.codeTrackingDb) lines.push('         also read, not counted here: ai-code-tracking.db');
  }
  const read = report.roots.filter((r) => r.read).length;
  lines.push('', `Sessions: ${report.sessions} distinct across ${read} root(s) read`, 'Layouts:');
  if (report.layouts.length === 0) lines.push('  no sources found');
  lines.push(...report.layouts.map(layoutLine));
  const v = report.versions;
  lines.push('Version hints:');
  lines.push(
    `  composerData _v: ${v.composerData === null ? 'none' : `${v.composerData.min}..${v.composerData.max}`}`,
  );
  for (const t of v.composerHeadersTables)
    lines.push(
      `  composerHeaders table: ${t.columns} columns, ${t.rows} row(s), ${t.subagentRows} subagent row(s)`,
    );
  for (const p of v.agentKvPointers)
    lines.push(
      `  agentKv pointer keys (not read): ${p.checkpoint} checkpoint, ${p.bubbleCheckpoint} bubbleCheckpoint, ${p.artifact} artifact`,
    );
  const flags = Object.entries(v.composerHeadersFlags);
  if (flags.length > 0)
    lines.push(`  composerHeaders flags: ${flags.map(([k, value]) => `${k}=${String(value)}`).join(', ')}`);
  lines.push('Problems:');
  if (report.problems.length === 0) lines.push('  none');
  for (const p of report.problems) {
    const entry = (CATALOGUE as Record<string, { meaning: string; remedy: string } | undefined>)[p.code];
    lines.push(`  ${p.code} x${p.count}${entry === undefined ? '' : `: ${entry.meaning} ${entry.remedy}`}`);
  }
  const w = report.warehouse;
  if (w !== null) {
    lines.push(
      `Warehouse (${w.target}): ${w.archived} archived; ${w.inSourcesNotArchived} in the sources but not archived` +
        ` (run \`etl run\`); ${w.archivedButGone} archived but gone from the sources (kept in the archive)`,
    );
    if (w.lastRunProblems.length > 0)
      lines.push(`  last run: ${w.lastRunProblems.map((p) => `${p.code} x${p.count}`).join(', ')}`);
  }
  return lines.join('\n');
}

export async function doctorCommand(
  flags: RunFlags,
  output: Output,
  environment: DataRootEnvironment = currentEnvironment(),
): Promise<number> {
  const { options } = await resolveRunFlags(flags, environment);
  const named =
    options.roots.carrier === 'custom'
      ? { userDir: options.roots.cursorUserDir, storeRoot: options.roots.cursorStoreRoot }
      : null;
  const temp = PrivateTempDir.create();
  const ctx = createReadContext({ ...options, temp });
  const roots: DoctorRoot[] = [];
  const sessionIds = new Set<string>();
  const problems = new Map<string, number>();
  const inventories: RootInventory[] = [];
  try {
    for (const planned of plannedRoots(named, options.roots.inputs, environment)) {
      const extras = planned.kind === 'agent-home' && planned.found ? agentHomeExtras(planned.path) : null;
      if (!planned.read) {
        roots.push({ ...planned, sessions: 0, layouts: [], extras });
        continue;
      }
      const inventory = await inventoryRoot(
        { kind: planned.kind, path: resolve(planned.path) } as InventoryRoot,
        ctx,
      );
      inventories.push(inventory);
      for (const id of inventory.sessionIds) sessionIds.add(id);
      for (const [code, n] of inventory.problems) problems.set(code, (problems.get(code) ?? 0) + n);
      roots.push({ ...planned, sessions: inventory.sessionIds.size, layouts: inventory.layouts, extras });
    }
  } finally {
    temp.dispose();
  }
  const versions = inventories.map((i) => i.composerVersions).filter((v) => v !== null);
  const report: DoctorReport = DOCTOR_REPORT.parse({
    roots,
    sessions: sessionIds.size,
    layouts: mergeLayouts(roots.flatMap((r) => r.layouts)),
    problems: [...problems.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([code, count]) => ({ code: code as Code, count })),
    versions: {
      composerData:
        versions.length === 0
          ? null
          : { min: Math.min(...versions.map((v) => v.min)), max: Math.max(...versions.map((v) => v.max)) },
      composerHeadersTables: inventories.flatMap((i) => i.composerHeaders),
      agentKvPointers: inventories.flatMap((i) => i.agentKvPointers),
      composerHeadersFlags: Object.assign({}, ...inventories.map((i) => i.headerFlags)),
    },
    warehouse: flags.target === undefined ? null : await warehouseGaps(flags.target, sessionIds),
    payloadBytesRead: ctx.counters.payloadBytes,
  });
  output.success(report, humanReport(report));
  return 0;
}
