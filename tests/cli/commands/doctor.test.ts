import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CANARY_BLOB_KEY, writeAgentKvCorpus } from '../../../fixtures/agentkv/agentkv-corpus.js';
import { completeRunEvents } from '../../../fixtures/capture/cli-captures.js';
import { ndjson, writeCapture } from '../../../fixtures/capture/write-capture.js';
import { rawText } from '../../../fixtures/composer/state-db-builder.js';
import {
  buildInstallTree,
  CANARY_KEY,
  CANARY_TEXT,
  type InstallTree,
  SDK_AGENT_ID,
  STORE_SESSION_ID,
} from '../../../fixtures/data-roots/install-tree.js';
import {
  CANARY_COMPOSER,
  userDirUnder,
  writeBaselineGlobalDb,
} from '../../../fixtures/hostile/baseline-corpus.js';
import { canariesIn, MESSAGE_CANARY } from '../../../fixtures/hostile/canaries.js';
import { SAMPLE_COMPOSERS } from '../../../fixtures/sample/sample-corpus.js';
import { SDK_AGENT_STORE_CANARY, writeSdkStoreCorpus } from '../../../fixtures/sdk/sdk-store-corpus.js';
import { chatSessionDir, writeMetaJson, writeStoreDb } from '../../../fixtures/store/store-session.js';
import { DOCTOR_REPORT, type DoctorReport } from '../../../schemas/doctor-report.js';
import { doctorCommand } from '../../../src/cli/commands/doctor.js';
import type { Output } from '../../../src/cli/output.js';
import type { RunFlags } from '../../../src/cli/run-options.js';
import { DEFAULT_READ_LIMITS } from '../../../src/extract/limits/read-limits.js';
import { targetOpener } from '../../../src/load/open-target.js';
import { runPipeline } from '../../../src/sync/run-pipeline.js';
import { queryRows } from '../../helpers/query-warehouse.js';
import { tempDir } from '../../helpers/run-cli.js';

const GONE_ID = '60e60e60-0000-4000-8000-0000000000e1';

async function doctor(tree: InstallTree, flags: RunFlags = {}): Promise<{ json: unknown; human: string }> {
  const environment = { platform: 'linux' as const, env: tree.env, home: '/home/dev', fsRoot: tree.fsRoot };
  const captured: { json: unknown; human: string } = { json: null, human: '' };
  const output = (json: boolean): Output => ({
    json,
    success(envelope, human, diagnostics = []) {
      if (json) captured.json = JSON.parse(JSON.stringify({ ...envelope, diagnostics }));
      else captured.human = human;
    },
    info: () => undefined,
    stream: () => true,
  });
  expect(await doctorCommand(flags, output(true), environment)).toBe(0);
  expect(await doctorCommand(flags, output(false), environment)).toBe(0);
  return captured;
}

/** A warehouse holding the Windows-side sessions and one Store session no source holds any more. */
async function warehouseOf(tree: InstallTree, dir: string): Promise<string> {
  const gone = join(dir, 'gone-store');
  const sessionDir = chatSessionDir(gone, '/home/dev/old', GONE_ID);
  writeMetaJson(sessionDir, {
    schemaVersion: 1,
    createdAtMs: 1,
    updatedAtMs: 2,
    hasConversation: true,
    cwd: '/x',
  });
  writeStoreDb(join(sessionDir, 'store.db'), {
    tree: [{ message: { role: 'user', content: '<user_query>\nold\n</user_query>' } }],
  });
  const path = join(dir, 'warehouse.duckdb');
  const target = await (await targetOpener({ kind: 'duckdb', path }))();
  try {
    await runPipeline(
      {
        roots: {
          cursorUserDir: tree.windowsUserDir,
          cursorStoreRoot: gone,
          inputs: [],
          backups: [],
          carrier: 'custom',
        },
        limits: DEFAULT_READ_LIMITS,
        sinceLast: false,
        preferredSource: 'composer',
        includeCrossWorkspaceSources: false,
      },
      target,
    );
  } finally {
    await target.close();
  }
  return path;
}

describe('etl doctor', () => {
  let tree: InstallTree;
  let report: DoctorReport;
  let text: string;
  let human: string;
  let warehouse: string;
  beforeAll(async () => {
    const dir = tempDir('doctor-');
    tree = buildInstallTree(dir);
    warehouse = await warehouseOf(tree, dir);
    const out = await doctor(tree, { target: `duckdb:${warehouse}` });
    text = JSON.stringify(out.json);
    report = DOCTOR_REPORT.parse(out.json);
    human = out.human;
  }, 60_000);

  it('lists every root it looked at, found or absent, with the sessions of each', () => {
    const found = report.roots.filter((r) => r.found).map((r) => `${r.kind} ${r.origin} ${r.build ?? '-'}`);
    expect(found).toEqual([
      'agent-home wsl-distro -',
      'ide-user wsl-windows stable',
      'ide-user wsl-windows insiders',
      'agent-home wsl-windows -',
      'remote-server remote-server -',
    ]);
    expect(report.roots.find((r) => r.origin === 'linux')).toMatchObject({ found: false, read: false });
    const byPath = new Map(report.roots.map((r) => [r.path, r.sessions]));
    expect(byPath.get(tree.windowsUserDir)).toBe(SAMPLE_COMPOSERS.length + 1);
    expect(byPath.get(tree.insidersUserDir)).toBe(SAMPLE_COMPOSERS.length);
    expect(byPath.get(tree.remoteServerUserDir)).toBe(0);
    // The Insiders copy replicates the Windows-side sessions, and both agent homes one SDK agent: counted once.
    expect(report.sessions).toBe(SAMPLE_COMPOSERS.length + 3);
    expect(human).toContain(tree.windowsUserDir);
    expect(human).toMatch(/absent\s+ide-user\s+linux/);
    const distro = report.roots.find((r) => r.path === tree.distroAgentHome);
    expect(distro?.extras).toEqual({ sdkAgentStores: 1, codeTrackingDb: true });
    expect(human).toContain('also read, not counted here: ai-code-tracking.db');
    expect(human).not.toContain('SDK agent store(s)');
  });

  it('counts sessions, messages and blobs per layout generation from metadata', () => {
    const layout = (kind: string, generation: string) =>
      report.layouts.find((l) => l.sourceKind === kind && l.generation === generation);
    const bubbles = SAMPLE_COMPOSERS.reduce((n, c) => n + c.bubbles.length, 0);
    // Both IDE global DBs and the remote server's settings-only one.
    expect(layout('composer-global-db', 'global-db')).toMatchObject({
      sources: 3,
      messages: 2 * bubbles + 1,
      blobs: 0,
    });
    expect(layout('composer-workspace-db', 'workspace-3.0-pointer')).toMatchObject({ sources: 1 });
    expect(layout('composer-workspace-db', 'workspace-pre-3.0')?.sources).toBe(4);
    expect(layout('store-session-dir', 'store-db')).toMatchObject({ sources: 1, sessions: 1 });
    expect(layout('store-session-dir', 'store-db')?.blobs).toBeGreaterThan(0);
    // The SDK agent store of both agent homes: its agent (one session ID) and its run.
    expect(layout('sdk-agent-index', 'sdk-index')).toMatchObject({ sources: 2, sessions: 2, runs: 2 });
    expect(human).toContain('sdk-agent-index / sdk-index: 2 source(s), 2 session occurrence(s), 2 run(s)');
  });

  it('counts agentKv blobs no session links, SDK sessions and runs per runs schema, and what it cannot read', async () => {
    const dir = tempDir('doctor-2026-');
    const { userDir } = writeAgentKvCorpus(join(dir, 'ide'));
    const { storeRoot } = writeSdkStoreCorpus(join(dir, 'home'));
    const { json, human: text } = await doctor(tree, { cursorUserDir: userDir, cursorStoreRoot: storeRoot });
    const out = DOCTOR_REPORT.parse(json);
    const layout = (kind: string, generation: string) =>
      out.layouts.find((l) => l.sourceKind === kind && l.generation === generation);
    // 10 JSON message blobs: 7 in prompt lists, 1 opening a bubble's request, 1 orphan request and
    // the hash-mismatch blob (named by a prompt list, so linked) - as AGENTKV_BLOBS_UNLINKED of a run.
    expect(layout('composer-global-db', 'global-db-agentkv')).toMatchObject({ sources: 1, unlinkedBlobs: 1 });
    expect(layout('sdk-agent-index', 'sdk-index')).toMatchObject({ sources: 1, sessions: 2, runs: 3 });
    expect(layout('sdk-agent-index', 'sdk-index-legacy-runs')).toMatchObject({
      sources: 1,
      sessions: 1,
      runs: 1,
    });
    const codes = out.problems.map((p) => p.code);
    expect(codes).toEqual(expect.arrayContaining(['AGENTKV_PROTOBUF_UNREAD', 'SDK_AGENT_STORES_UNREAD']));
    expect(text).toContain('1 unlinked message blob(s)');
    // Pointer keys whose value encoding (checkpoint) or payload (artifact) is unknown: counted only.
    expect(out.versions.agentKvPointers).toEqual([{ checkpoint: 1, bubbleCheckpoint: 1, artifact: 0 }]);
    expect(text).toContain('agentKv pointer keys (not read): 1 checkpoint, 1 bubbleCheckpoint, 0 artifact');
    expect(text).toMatch(/SDK_AGENT_STORES_UNREAD x1: /);
    for (const secret of [
      CANARY_BLOB_KEY,
      SDK_AGENT_STORE_CANARY,
      'PER-AGENT-STORE-MARKER',
      'Background run',
    ])
      expect(JSON.stringify(json) + text).not.toContain(secret);
    expect(out.payloadBytesRead).toBe(0);
  });

  it('reports the composer _v range and the composerHeaders table variant and flags', () => {
    expect(report.versions.composerData?.max).toBe(18);
    expect(report.versions.composerHeadersTables).toEqual([
      { columns: 10, rows: SAMPLE_COMPOSERS.length, subagentRows: 0 },
    ]);
    expect(report.versions.composerHeadersFlags).toEqual({ version: 2, migratedToTable: true });
    expect(report.versions.agentKvPointers).toEqual([]);
    expect(human).toContain('composerHeaders table: 10 columns');
  });

  it('compares the sources with the warehouse', async () => {
    expect(report.warehouse).toMatchObject({
      target: 'duckdb',
      inSourcesNotArchived: 2,
      notArchivedIds: [STORE_SESSION_ID, SDK_AGENT_ID].sort(),
      archivedButGone: 1,
      goneIds: [GONE_ID],
    });
    // The fixture's run records diagnostics (missing time values): doctor lists them by code.
    const recorded = await queryRows(
      warehouse,
      'SELECT code, count(*)::INTEGER AS count FROM diagnostics GROUP BY code ORDER BY code',
    );
    expect(recorded.length).toBeGreaterThan(0);
    expect(report.warehouse?.lastRunProblems).toEqual(recorded);
    const first = recorded[0]!;
    expect(human).toContain(`last run: ${String(first.code)} x${String(first.count)}`);
  });

  it('prints no message text and no secret', () => {
    for (const out of [text, human]) {
      expect(out).not.toContain(CANARY_KEY);
      expect(out).not.toContain(CANARY_TEXT);
    }
    expect(report.payloadBytesRead).toBe(0);
  });

  it('tells the 9-column composerHeaders table of 3.9-3.15 from the 10-column one', async () => {
    const older = buildInstallTree(tempDir('doctor-9-'), 9);
    const out = DOCTOR_REPORT.parse((await doctor(older)).json);
    expect(out.versions.composerHeadersTables.map((t) => t.columns)).toEqual([9]);
    expect(out.warehouse).toBeNull();
  });

  it('reads --input captures as one more root, and named roots replace discovery', async () => {
    const dir = tempDir('doctor-input-');
    const sid = '0c0c0c0c-0000-4000-8000-0000000000f1';
    const captures = join(dir, 'captures');
    writeCapture(captures, 'run.ndjson', ndjson(completeRunEvents(sid)));
    const out = DOCTOR_REPORT.parse(
      (await doctor(tree, { cursorUserDir: tree.insidersUserDir, input: [captures] })).json,
    );
    expect(out.roots.map((r) => `${r.kind} ${r.origin} ${r.found} ${r.sessions}`)).toEqual([
      `ide-user named true ${SAMPLE_COMPOSERS.length}`,
      'input input true 1',
    ]);
    expect(out.layouts.find((l) => l.sourceKind === 'capture-file')).toMatchObject({
      generation: 'capture',
      sources: 1,
      sessions: 1,
    });
  });

  it('counts an unreadable database under its kind with the code that explains it', async () => {
    const damaged = buildInstallTree(tempDir('doctor-damaged-'));
    const storage = join(damaged.windowsUserDir, 'workspaceStorage', '0badf00d0badf00d0badf00d0badf00d');
    mkdirSync(storage, { recursive: true });
    writeFileSync(join(storage, 'state.vscdb'), 'not a database, just text '.repeat(200));
    const { json, human: text } = await doctor(damaged);
    const out = DOCTOR_REPORT.parse(json);
    expect(out.layouts.find((l) => l.generation === 'unreadable')).toMatchObject({
      sourceKind: 'composer-workspace-db',
      unreadable: 1,
    });
    expect(out.problems.map((p) => p.code)).toContain('SOURCE_UNREADABLE');
    expect(text).toMatch(/SOURCE_UNREADABLE x\d+: /);
  });

  it('names a hostile root by its path only: no message or secret canary, no source path inside it', async () => {
    const root = tempDir('doctor-hostile-');
    const userDir = userDirUnder(root);
    const damaged = writeBaselineGlobalDb(userDir);
    damaged.bubble(CANARY_COMPOSER.id, 'b-c1-03', rawText(`{"text": "${MESSAGE_CANARY}", broken`));
    damaged.close();
    const environment = { platform: 'linux' as const, env: {}, home: join(root, 'nobody') };
    let json = '';
    let human = '';
    const output = (asJson: boolean): Output => ({
      json: asJson,
      success(envelope, text, diagnostics = []) {
        if (asJson) json = JSON.stringify({ ...envelope, diagnostics });
        else human = text;
      },
      info: () => undefined,
      stream: () => true,
    });
    await doctorCommand({ cursorUserDir: userDir }, output(true), environment);
    await doctorCommand({ cursorUserDir: userDir }, output(false), environment);
    expect(human).toContain(userDir);
    for (const text of [
      json.replaceAll(JSON.stringify(userDir).slice(1, -1), '<root>'),
      human.replaceAll(userDir, '<root>'),
    ])
      expect(canariesIn(text)).toEqual([]);
  });
});
