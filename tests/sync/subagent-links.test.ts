/**
 * Subagent links end to end (issue #25 §2): the chains of cursor-formats §9.5 loaded into DuckDB and
 * Parquet, linked from every source of truth, conflicts reported, and identities equal to a load of
 * the same sessions without any link source.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  SUBAGENT_IDS as IDS,
  LEGACY_TASK_SESSION,
  TASK_CALLS,
  writeSubagentCorpus,
} from '../../fixtures/subagent/subagent-corpus.js';
import type { RunSummary } from '../../src/sync/run-state.js';
import { rowsOf } from '../helpers/query-warehouse.js';
import { tempDir } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/sync-convergence.js';

type Kind = 'duckdb' | 'parquet';
interface Sources {
  userDir: string;
  storeRoot: string;
}

const LINKS = `SELECT session_id, parent_session_id, root_session_id, spawn_tool_call_id, subagent_type
  FROM sessions ORDER BY session_id`;

describe('subagent links loaded end to end', { timeout: 300_000 }, () => {
  let root: string;
  let sources: Sources;
  const paths: Record<Kind, string> = { duckdb: '', parquet: '' };
  const runs: Record<Kind, RunSummary[]> = { duckdb: [], parquet: [] };

  beforeAll(async () => {
    root = tempDir('etl-subagents-');
    sources = writeSubagentCorpus(join(root, 'with'));
    paths.duckdb = join(root, 'duckdb', 'w.duckdb');
    paths.parquet = join(root, 'parquet');
    for (const kind of ['duckdb', 'parquet'] as const)
      runs[kind].push(await runInProcess(sources, paths[kind], false, kind));
  });

  for (const kind of ['duckdb', 'parquet'] as const) {
    it(`${kind}: every child links to its parent, root, spawning Task call and type, from IDE databases, transcripts and store.db meta alike`, async () => {
      expect(await rowsOf(kind, paths[kind], LINKS)).toEqual([
        {
          session_id: IDS.parent,
          parent_session_id: null,
          root_session_id: null,
          spawn_tool_call_id: null,
          subagent_type: null,
        },
        {
          session_id: IDS.child,
          parent_session_id: IDS.parent,
          root_session_id: IDS.parent,
          spawn_tool_call_id: TASK_CALLS.child,
          subagent_type: 'explore',
        },
        {
          session_id: IDS.grandchild,
          parent_session_id: IDS.child,
          root_session_id: IDS.parent,
          spawn_tool_call_id: TASK_CALLS.grandchild,
          subagent_type: 'shell',
        },
        // Known from the IDE databases alone: its composerHeaders row and its parent's listing.
        {
          session_id: IDS.ideOnlyChild,
          parent_session_id: IDS.parent,
          root_session_id: null,
          spawn_tool_call_id: TASK_CALLS.ideOnlyChild,
          subagent_type: 'generalPurpose',
        },
        // The headers table outranks the composerData and the parent's listing.
        {
          session_id: IDS.conflicting,
          parent_session_id: IDS.child,
          root_session_id: null,
          spawn_tool_call_id: TASK_CALLS.conflicting,
          subagent_type: 'explore',
        },
        {
          session_id: IDS.storeChild,
          parent_session_id: IDS.parent,
          root_session_id: IDS.parent,
          spawn_tool_call_id: TASK_CALLS.storeChild,
          subagent_type: 'explore',
        },
      ]);
    });

    it(`${kind}: v_subagent_tree lists the parent with its whole tree, depth, path and the spawning Task call`, async () => {
      const tree = await rowsOf(
        kind,
        paths[kind],
        `SELECT session_id, parent_session_id, depth, path, spawn_tool, spawn_tool_id IS NOT NULL AS has_tool
           FROM v_subagent_tree WHERE tree_root_session_id = '${IDS.parent}' ORDER BY depth, session_id`,
      );
      expect(tree.map((r) => [r.session_id, r.depth, r.spawn_tool, r.has_tool])).toEqual([
        [IDS.parent, 0, null, false],
        [IDS.child, 1, 'Task', true],
        [IDS.ideOnlyChild, 1, 'task_v2', true],
        [IDS.storeChild, 1, 'Task', true],
        [IDS.grandchild, 2, 'Task', true],
        // Its Task call is in the parent its weaker sources name, not the child the stronger one names.
        [IDS.conflicting, 2, null, false],
      ]);
      expect(tree.find((r) => r.session_id === IDS.grandchild)?.path).toEqual([
        IDS.parent,
        IDS.child,
        IDS.grandchild,
      ]);
      const roots = await rowsOf(
        kind,
        paths[kind],
        'SELECT DISTINCT tree_root_session_id AS r FROM v_subagent_tree',
      );
      expect(roots).toEqual([{ r: IDS.parent }]);
    });
  }

  it('conflicting sources are typed diagnostics naming the kept and the other source, never a silent pick', () => {
    const conflicts = runs.duckdb[0]!.diagnostics.filter((d) => d.code === 'SUBAGENT_LINK_CONFLICT').map(
      (d) => [d.sessionId, d.details],
    );
    expect(conflicts).toEqual([
      [
        IDS.conflicting,
        { field: 'parent_session_id', keptSource: 'composer-headers-table', otherSource: 'composer-data' },
      ],
      [
        IDS.conflicting,
        { field: 'parent_session_id', keptSource: 'composer-headers-table', otherSource: 'parent-listing' },
      ],
    ]);
    expect(runs.parquet[0]!.diagnostics.filter((d) => d.code === 'SUBAGENT_LINK_CONFLICT')).toHaveLength(2);
  });

  it('--since-last with nothing changed reads no payload on either target', async () => {
    for (const kind of ['duckdb', 'parquet'] as const) {
      const again = await runInProcess(sources, paths[kind], true, kind);
      expect(again.payloadBytesRead, kind).toBe(0);
      expect(again.payloadReads, kind).toBe(0);
      expect(await rowsOf(kind, paths[kind], LINKS), kind).toEqual(
        await rowsOf('duckdb', paths.duckdb, LINKS),
      );
    }
  });

  it('identity v1 of every message and tool call, and the parent row, are the same without any link source', async () => {
    const bare = writeSubagentCorpus(join(root, 'without'), { withoutLinks: true });
    const path = join(root, 'bare', 'w.duckdb');
    await runInProcess(bare, path, false, 'duckdb');
    const ids = `SELECT m.session_id, m.ordinal, m.message_id, c.tool_ordinal, c.tool_id FROM messages m
      LEFT JOIN tool_calls c USING (session_id, message_id) ORDER BY 1, 2, 4`;
    const linked = await rowsOf('duckdb', paths.duckdb, ids);
    expect(linked.length).toBeGreaterThan(15);
    expect(await rowsOf('duckdb', path, ids)).toEqual(linked);
    // Only the transcript links remain: the parent's row (digest included) does not change.
    const parent = `SELECT * FROM sessions WHERE session_id = '${IDS.parent}'`;
    expect(await rowsOf('duckdb', path, parent)).toEqual(await rowsOf('duckdb', paths.duckdb, parent));
    expect((await rowsOf('duckdb', path, LINKS)).filter((r) => r.parent_session_id !== null)).toEqual([
      {
        session_id: IDS.child,
        parent_session_id: IDS.parent,
        root_session_id: null,
        spawn_tool_call_id: null,
        subagent_type: null,
      },
    ]);
  });

  it('the parent resolves the same whether or not its IDE-only child exists', async () => {
    const alone = writeSubagentCorpus(join(root, 'alone'), { withoutIdeOnlyChild: true });
    const path = join(root, 'alone-w', 'w.duckdb');
    await runInProcess(alone, path, false, 'duckdb');
    const parent = `SELECT * FROM sessions WHERE session_id = '${IDS.parent}'`;
    expect(await rowsOf('duckdb', path, parent)).toEqual(await rowsOf('duckdb', paths.duckdb, parent));
  });

  it('a legacy sub-composer bubble key (newline in the composer ID) loads as its own session, reported', async () => {
    const legacy = writeSubagentCorpus(join(root, 'legacy'), { legacyTaskSession: true });
    const path = join(root, 'legacy-w', 'w.duckdb');
    const run = await runInProcess(legacy, path, false, 'duckdb');
    expect(
      run.diagnostics.filter((d) => d.code === 'SUBAGENT_LEGACY_TASK_SESSION').map((d) => d.sessionId),
    ).toEqual([LEGACY_TASK_SESSION]);
    const [row] = await rowsOf(
      'duckdb',
      path,
      `SELECT message_count, parent_session_id FROM sessions WHERE starts_with(session_id, 'task-')`,
    );
    expect(row).toEqual({ message_count: 1, parent_session_id: null });
    // The other sessions link exactly as without it.
    const others = (await rowsOf('duckdb', path, LINKS)).filter((r) => r.session_id !== LEGACY_TASK_SESSION);
    expect(others).toEqual(await rowsOf('duckdb', paths.duckdb, LINKS));
  });

  it('the 9-column composerHeaders table (no subagentTypeName) links the same parents', async () => {
    const old = writeSubagentCorpus(join(root, 'nine'), { headerColumns: 9 });
    const path = join(root, 'nine-w', 'w.duckdb');
    await runInProcess(old, path, false, 'duckdb');
    const rows = await rowsOf('duckdb', path, LINKS);
    expect(rows.map((r) => r.parent_session_id)).toEqual(
      (await rowsOf('duckdb', paths.duckdb, LINKS)).map((r) => r.parent_session_id),
    );
    // Without the type column, the IDE-only child has no stated type.
    expect(rows.find((r) => r.session_id === IDS.ideOnlyChild)?.subagent_type).toBeNull();
  });
});
