import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as cli from '../../fixtures/capture/cli-captures.js';
import * as cloud from '../../fixtures/capture/cloud-captures.js';
import * as md from '../../fixtures/capture/markdown-captures.js';
import {
  CANARY_SECRETS,
  redactionCliCapture,
  redactionCloudCapture,
  redactionMarkdown,
  redactionSpecStory,
  redactionV0Conversation,
} from '../../fixtures/capture/redaction-captures.js';
import { writeCapture } from '../../fixtures/capture/write-capture.js';
import { buildStoreMatrix, IDS } from '../../fixtures/store/store-matrix.js';
import { runCli, tempDir } from '../helpers/run-cli.js';

interface RunOutput {
  run: { counts: Record<string, number> };
  diagnostics: { code: string; details: Record<string, unknown> }[];
}

function workspace() {
  const root = tempDir('etl-captures-');
  const target = `duckdb:${join(root, 'w.duckdb')}`;
  const run = (inputs: string[], extra: string[] = []) => {
    const args = [
      'run',
      '--json',
      '--cursor-user-dir',
      join(root, 'no-cursor'),
      '--target',
      target,
      ...extra,
    ];
    for (const input of inputs) args.push('--input', input);
    return runCli(args, { XDG_CONFIG_HOME: join(root, 'config') });
  };
  const ok = (inputs: string[], extra: string[] = []): RunOutput => {
    const result = run(inputs, extra);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    return JSON.parse(result.stdout);
  };
  const rows = (sql: string): Record<string, unknown>[] =>
    JSON.parse(runCli(['query', '--json', '--target', target, sql]).stdout).rows;
  return { root, target, run, ok, rows };
}

describe('etl run --input: every capture surface end to end', { timeout: 240_000 }, () => {
  const w = workspace();
  let first: RunOutput;
  beforeAll(() => {
    const dir = join(w.root, 'in');
    writeCapture(dir, 'cli/complete-basic.ndjson', cli.completeBasic());
    writeCapture(dir, 'cli/json-output.json', cli.jsonOutput());
    writeCapture(dir, 'cli/partial-deltas.ndjson', cli.partialDeltas());
    writeCapture(dir, 'cli/truncated-no-result.ndjson', cli.truncatedNoResult());
    writeCapture(dir, 'cli/malformed-middle.ndjson', cli.malformedMiddle());
    writeCapture(dir, 'cli/unknown-kinds.ndjson', cli.unknownKinds());
    writeCapture(dir, 'cli/session-id-change.ndjson', cli.sessionIdChange());
    writeCapture(dir, 'cli/unknown-major.ndjson', cli.unknownMajor());
    writeCapture(dir, 'cli/interaction-update.ndjson', cli.interactionUpdates());
    writeCapture(dir, 'cloud/finished.capture.jsonl', cloud.finishedCapture());
    writeCapture(dir, 'cloud/finished.sse', cloud.finishedSse());
    writeCapture(dir, 'cloud/reconnect.capture.jsonl', cloud.reconnectCapture());
    writeCapture(dir, 'cloud/expired-410.capture.jsonl', cloud.expired410Capture());
    writeCapture(dir, 'cloud/cancel-archive-delete.capture.jsonl', cloud.cancelArchiveDeleteCapture());
    writeCapture(dir, 'cloud/unknown-major.capture.jsonl', cloud.unknownMajorCapture());
    writeCapture(dir, 'cloud/interaction-update.capture.jsonl', cloud.interactionCapture());
    writeCapture(dir, 'cloud/v0-conversation.json', cloud.v0Conversation());
    writeCapture(
      dir,
      'cloud/v0-saved-with-agent.json',
      cloud.v0Conversation({ agentId: 'bc_ex2', wrapped: true }),
    );
    writeCapture(dir, 'editor/export-2x.md', md.exportChat2x());
    writeCapture(dir, 'editor/export-hr-in-code.md', md.exportChat());
    writeCapture(dir, 'specstory/v1-oldest.md', md.specStoryV1Oldest());
    writeCapture(dir, 'specstory/v1-header.md', md.specStoryV1());
    writeCapture(dir, 'specstory/v15-session-comment.md', md.specStoryV15());
    writeCapture(dir, 'specstory/v2-tool-use.md', md.specStoryV2());
    writeCapture(dir, 'specstory/unknown-major.md', md.specStoryV2({ version: '3.0.0' }));
    writeCapture(dir, 'notes.txt', 'not a capture\n');
    first = w.ok([dir]);
  }, 240_000);

  it('loads every supported capture and refuses the bad ones as diagnostics (exit 0)', () => {
    expect(first.run.counts.sessionsInserted).toBe(21);
    const codes = first.diagnostics.map((d) => d.code).sort();
    expect(codes).toEqual([
      'CAPTURE_KIND_UNDETECTED',
      'CAPTURE_MALFORMED_LINE',
      'CAPTURE_PARTIAL_TAIL',
      'CAPTURE_SCHEMA_UNSUPPORTED',
      'CAPTURE_SCHEMA_UNSUPPORTED',
      'CAPTURE_SCHEMA_UNSUPPORTED',
      'CAPTURE_SESSION_ID_CHANGED',
    ]);
    expect(JSON.stringify(first.diagnostics)).not.toContain(w.root);
    const bySource = w.rows(
      'select resolved_source, fidelity, count(*)::int as n from sessions group by all order by all',
    );
    expect(bySource).toEqual([
      { resolved_source: 'cli-stream', fidelity: 'complete', n: 5 },
      { resolved_source: 'cli-stream', fidelity: 'partial', n: 2 },
      { resolved_source: 'cloud-agent', fidelity: 'complete', n: 6 },
      { resolved_source: 'cloud-agent', fidelity: 'partial', n: 2 },
      { resolved_source: 'markdown-export', fidelity: 'complete', n: 6 },
    ]);
  });

  it('rows carry capture provenance: roles, carriers and identity origins', () => {
    expect(
      w.rows('select distinct source_role, representation, carrier from source_instances order by all'),
    ).toEqual([
      { source_role: 'cli', representation: 'cli-stream', carrier: 'capture' },
      { source_role: 'cloud', representation: 'cloud-capture', carrier: 'capture' },
      { source_role: 'markdown', representation: 'markdown-export', carrier: 'capture' },
    ]);
    expect(w.rows('select distinct identity_origin from messages order by 1')).toEqual([
      { identity_origin: 'capture-native' },
      { identity_origin: 'capture-v1' },
    ]);
  });

  it('Markdown never invents times: Export Chat messages are `unknown` and the session `epoch-unknown`', () => {
    const rows = w.rows(
      "select distinct s.created_at_source, m.timestamp_source from sessions s join messages m using (session_id) where s.title = 'Rename the helper module'",
    );
    expect(rows).toEqual([{ created_at_source: 'epoch-unknown', timestamp_source: 'unknown' }]);
  });

  it('v0 conversations: native message IDs, text only, partial; SpecStory thinking is in `thinking`; interaction updates mapped', () => {
    expect(
      w.rows(
        "select session_id, message_id, role, content, timestamp_source from messages where session_id in ('bc_ex1', 'bc_ex2') order by all",
      ),
    ).toEqual([
      {
        session_id: 'bc_ex1',
        message_id: 'm1',
        role: 'user',
        content: 'Bump version',
        timestamp_source: 'unknown',
      },
      {
        session_id: 'bc_ex1',
        message_id: 'm2',
        role: 'assistant',
        content: 'Done.',
        timestamp_source: 'unknown',
      },
      {
        session_id: 'bc_ex2',
        message_id: 'm1',
        role: 'user',
        content: 'Bump version',
        timestamp_source: 'session-fallback',
      },
      {
        session_id: 'bc_ex2',
        message_id: 'm2',
        role: 'assistant',
        content: 'Done.',
        timestamp_source: 'session-fallback',
      },
    ]);
    expect(
      w.rows(
        `select thinking, position('<think>' in content)::int as at from messages where session_id = '${md.SPECSTORY_V2_UUID}' and role = 'assistant'`,
      ),
    ).toEqual([{ thinking: 'The entries should be sorted.\n\nNewest first is the convention here.', at: 0 }]);
    expect(
      w.rows(
        "select content, thinking from messages where session_id in ('sess-0000-j1', 'bc-0000-0006') and role = 'assistant' order by all",
      ),
    ).toEqual([
      { content: 'Let me look.', thinking: 'Use ls.' },
      { content: 'One file.', thinking: null },
      { content: 'Running the tests.', thinking: 'Check the tests.' },
    ]);
    expect(
      w.rows("select title, message_count::int as n from sessions where title = '변경 로그 정리'"),
    ).toEqual([{ title: '변경 로그 정리', n: 3 }]);
  });

  it('a second identical run writes nothing and etl verify passes', () => {
    const again = w.ok([join(w.root, 'in')]);
    expect(again.run.counts).toMatchObject({
      sessionsInserted: 0,
      sessionsReplaced: 0,
      sessionsUnchanged: 21,
    });
    expect(runCli(['verify', '--json', '--target', w.target]).code).toBe(0);
  });
});

describe('Cloud Agents v0 conversations load whatever their first bytes show', { timeout: 240_000 }, () => {
  it('no messages yet, a long first message, a long agent summary: three partial sessions, none undetected', () => {
    const w = workspace();
    const dir = join(w.root, 'cloud');
    writeCapture(dir, 'empty.json', cloud.v0Conversation({ agentId: 'bc_v0_empty', shape: 'empty' }));
    writeCapture(dir, 'long.json', cloud.v0Conversation({ agentId: 'bc_v0_long', shape: 'long-first-text' }));
    writeCapture(
      dir,
      'saved.json',
      cloud.v0Conversation({ agentId: 'bc_v0_saved', shape: 'long-agent-summary' }),
    );
    const out = w.ok([dir]);
    expect(out.diagnostics.map((d) => d.code)).not.toContain('CAPTURE_KIND_UNDETECTED');
    expect(out.run.counts.sessionsInserted).toBe(3);
    expect(
      w.rows(
        'select session_id, fidelity, resolved_source, message_count::int as n from sessions order by 1',
      ),
    ).toEqual([
      { session_id: 'bc_v0_empty', fidelity: 'partial', resolved_source: 'cloud-agent', n: 0 },
      { session_id: 'bc_v0_long', fidelity: 'partial', resolved_source: 'cloud-agent', n: 2 },
      { session_id: 'bc_v0_saved', fidelity: 'partial', resolved_source: 'cloud-agent', n: 2 },
    ]);
  });
});

describe('provisional vs complete through the load rule', { timeout: 240_000 }, () => {
  it('CLI: a later longer complete capture replaces the provisional one; a provisional one never overwrites it', () => {
    const w = workspace();
    const { provisional, complete } = cli.provisionalThenComplete();
    const p = writeCapture(w.root, 'a/run-partial.ndjson', provisional);
    const c = writeCapture(w.root, 'b/run-later.ndjson', complete);
    expect(w.ok([p]).run.counts.sessionsInserted).toBe(1);
    expect(w.ok([c]).run.counts.sessionsReplaced).toBe(1);
    expect(w.ok([p]).run.counts.sessionsKeptComplete).toBe(1);
    expect(w.rows('select fidelity, message_count::int as n from sessions')).toEqual([
      { fidelity: 'complete', n: 3 },
    ]);
  });

  it('CLI: both captures in one run → one complete session, the provisional one superseded', () => {
    const w = workspace();
    const { provisional, complete } = cli.provisionalThenComplete();
    const dir = join(w.root, 'both');
    writeCapture(dir, '1.ndjson', provisional);
    writeCapture(dir, '2.ndjson', complete);
    expect(w.ok([dir]).run.counts.sessionsInserted).toBe(1);
    expect(w.rows('select state from source_instances order by state')).toEqual([
      { state: 'contributed' },
      { state: 'superseded' },
    ]);
  });

  it('Cloud: a provisional capture never overwrites a complete archived agent', () => {
    const w = workspace();
    const done = writeCapture(
      w.root,
      'done.capture.jsonl',
      cloud.cancelArchiveDeleteCapture('bc-x', 'run-1', 3),
    );
    const later = writeCapture(w.root, 'later.capture.jsonl', cloud.runningCapture('bc-x', 'run-2'));
    w.ok([done]);
    expect(w.ok([later]).run.counts.sessionsKeptComplete).toBe(1);
  });

  it('Cloud v0 → v1 (one agent-ID namespace): a later complete v1 capture replaces the v0 conversation, which never overwrites it again', () => {
    const w = workspace();
    const v0 = writeCapture(w.root, 'a/conversation.json', cloud.v0Conversation({ agentId: 'bc-0000-0001' }));
    const v1 = writeCapture(w.root, 'b/agent.capture.jsonl', cloud.finishedCapture('bc-0000-0001'));
    expect(w.ok([v0]).run.counts.sessionsInserted).toBe(1);
    expect(w.ok([v1]).run.counts.sessionsReplaced).toBe(1);
    expect(w.ok([v0]).run.counts.sessionsKeptComplete).toBe(1);
    expect(w.rows('select fidelity, message_count::int as n from sessions')).toEqual([
      { fidelity: 'complete', n: 1 },
    ]);
  });

  it('Markdown: re-exporting the same chat later (longer, another path) replaces the earlier export', () => {
    const w = workspace();
    const short = writeCapture(w.root, 'x/chat.md', md.exportChat({ turns: 2 }));
    const long = writeCapture(
      w.root,
      'y/renamed.md',
      md.exportChat({ turns: 6, date: '19/10/2025 at 12:29:42 GMT+8' }),
    );
    w.ok([short]);
    expect(w.ok([long]).run.counts.sessionsReplaced).toBe(1);
    expect(w.rows('select count(*)::int as n, max(message_count)::int as m from sessions')).toEqual([
      { n: 1, m: 6 },
    ]);
  });
});

describe('a capture of a session Cursor also holds (CLI session_id = Store agent ID): "never picks or unions them silently"', {
  timeout: 240_000,
}, () => {
  it('complete Cursor data (Store, Composer/Store merge) is kept, complete beats partial, both partial keep Cursor data; every set-aside is a diagnostic', () => {
    const w = workspace();
    const storeRoot = join(w.root, 'store');
    const userDir = join(w.root, 'User');
    buildStoreMatrix(storeRoot, userDir);
    const dir = join(w.root, 'in');
    writeCapture(dir, 'db.ndjson', cli.completeBasic(IDS.db));
    writeCapture(dir, 'metadata-only.ndjson', cli.completeBasic(IDS.metadataOnly));
    writeCapture(dir, 'fallback.ndjson', cli.truncatedNoResult(IDS.fallbackNoDb));
    writeCapture(dir, 'merged.json', cli.jsonOutput(IDS.merged));
    const result = w.run([dir], ['--cursor-store-root', storeRoot, '--cursor-user-dir', userDir]);
    expect(result.code, result.stderr).toBe(0);
    const out = JSON.parse(result.stdout) as RunOutput;
    const setAside = out.diagnostics
      .filter((d) => d.code === 'CAPTURE_SET_ASIDE')
      .map((d) => [(d as { sessionId?: string }).sessionId, d.details]);
    expect(setAside).toEqual([
      [
        IDS.db,
        {
          kept: 'store-db',
          keptFidelity: 'complete',
          setAside: ['cli-stream'],
          setAsideFidelity: 'complete',
          rule: 'cursor-data-first',
        },
      ],
      [
        IDS.fallbackNoDb,
        {
          kept: 'store-transcript',
          keptFidelity: 'partial',
          setAside: ['cli-stream'],
          setAsideFidelity: 'partial',
          rule: 'cursor-data-first',
        },
      ],
      [
        IDS.merged,
        {
          kept: 'merged',
          keptFidelity: 'complete',
          setAside: ['cli-stream'],
          setAsideFidelity: 'complete',
          rule: 'cursor-data-first',
        },
      ],
      [
        IDS.metadataOnly,
        {
          kept: 'cli-stream',
          keptFidelity: 'complete',
          setAside: ['store-metadata'],
          setAsideFidelity: 'partial',
          rule: 'complete-over-partial',
        },
      ],
    ]);
    expect(JSON.stringify(out.diagnostics)).not.toContain(w.root);
    expect(JSON.stringify(out.diagnostics)).not.toContain('NOTES.md');
    const ids = `'${IDS.db}', '${IDS.metadataOnly}', '${IDS.fallbackNoDb}', '${IDS.merged}'`;
    expect(
      w.rows(
        `select s.session_id, s.resolved_source, s.fidelity, i.representation, i.state, i.reason_code from sessions s join source_instances i using (session_id) where s.session_id in (${ids}) and (i.representation = 'cli-stream' or i.reason_code like '%capture%') order by all`,
      ),
    ).toEqual([
      {
        session_id: IDS.db,
        resolved_source: 'store-db',
        fidelity: 'complete',
        representation: 'cli-stream',
        state: 'superseded',
        reason_code: 'capture-superseded-by-cursor-data',
      },
      {
        session_id: IDS.fallbackNoDb,
        resolved_source: 'store-transcript',
        fidelity: 'partial',
        representation: 'cli-stream',
        state: 'superseded',
        reason_code: 'capture-superseded-by-cursor-data',
      },
      {
        session_id: IDS.merged,
        resolved_source: 'merged',
        fidelity: 'complete',
        representation: 'cli-stream',
        state: 'superseded',
        reason_code: 'capture-superseded-by-cursor-data',
      },
      {
        session_id: IDS.metadataOnly,
        resolved_source: 'cli-stream',
        fidelity: 'complete',
        representation: 'cli-stream',
        state: 'contributed',
        reason_code: null,
      },
      {
        session_id: IDS.metadataOnly,
        resolved_source: 'cli-stream',
        fidelity: 'complete',
        representation: 'store-metadata',
        state: 'superseded',
        reason_code: 'superseded-by-complete-capture',
      },
    ]);
  });
});

describe('fail closed', { timeout: 240_000 }, () => {
  it('only refused sources and nothing else loaded → fatal exit 4, JSON error on stderr, empty stdout', () => {
    const w = workspace();
    const bad = writeCapture(w.root, 'change.ndjson', cli.sessionIdChange());
    const major = writeCapture(w.root, 'major.capture.jsonl', cloud.unknownMajorCapture());
    const result = w.run([bad, major]);
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    const error = JSON.parse(result.stderr).error;
    expect(error.code).toBe('CAPTURE_SESSION_ID_CHANGED');
    expect(error.details).toMatchObject({ refusedSources: 2 });
    expect(result.stderr).not.toContain(w.root);
  });
});

describe('--redact', { timeout: 240_000 }, () => {
  it('redaction canaries never reach the warehouse; native identities are unchanged, content-hashed ones sealed; only counts are reported', () => {
    const plain = workspace();
    const redacted = workspace();
    const dir = join(plain.root, 'in');
    writeCapture(dir, 'r.ndjson', redactionCliCapture());
    writeCapture(dir, 'r.md', redactionMarkdown());
    writeCapture(dir, 'c.capture.jsonl', redactionCloudCapture());
    writeCapture(dir, 'v0.json', redactionV0Conversation());
    writeCapture(dir, 's.md', redactionSpecStory());
    writeCapture(dir, 'clean.capture.jsonl', cloud.finishedCapture());
    plain.ok([dir]);
    const out = redacted.ok([dir], ['--redact']);
    const dump = (w: ReturnType<typeof workspace>): string =>
      String(
        w.rows(
          "select (select string_agg(s::varchar, '|') from sessions s) || (select string_agg(m::varchar, '|') from messages m) || (select string_agg(t::varchar, '|') from tool_calls t) as d",
        )[0]!.d,
      );
    const plainDump = dump(plain);
    const redactedDump = dump(redacted);
    for (const secret of CANARY_SECRETS) {
      expect(plainDump).toContain(secret);
      expect(redactedDump).not.toContain(secret);
    }
    const ids = (w: ReturnType<typeof workspace>, version: string): string[] =>
      w
        .rows('select session_id, message_id from messages')
        .map((r) =>
          `${r.session_id} ${r.message_id}`.replace(
            new RegExp(`:${version}:((?:db:|transcript:)?)[0-9a-f]{64}`, 'g'),
            ':sealed:$1<hash>',
          ),
        )
        .sort();
    expect(ids(redacted, 'v1k')).toEqual(ids(plain, 'v1'));
    expect(ids(redacted, 'v1k').some((id) => id.includes(':sealed:'))).toBe(true);
    const report = out.diagnostics.find((d) => d.code === 'REDACTION_APPLIED')!;
    expect(report.details).toMatchObject({ sessionsAffected: 5 });
    expect(report.details.redactions).toBeGreaterThanOrEqual(CANARY_SECRETS.length);
    expect(JSON.stringify(out)).not.toContain('CanaryPass');
    expect(runCli(['verify', '--json', '--target', redacted.target]).code).toBe(0);
  });
});
