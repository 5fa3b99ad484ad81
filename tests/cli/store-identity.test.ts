/**
 * Store tool-call identities and compact Store directories, end to end through the built CLI into
 * DuckDB (docs/compatibility-matrix.md, "Store tool calls" and "Compact Store directories").
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildIdentityCorpus,
  IDENTITY_IDS as IDS,
  type IdentityCorpus,
} from '../../fixtures/store/identity-corpus.js';
import { freshLoad } from '../helpers/fresh-load.js';
import { tempDir } from '../helpers/run-cli.js';

type Row = Record<string, unknown>;

/** SHA-256 of a canonical JSON v1 text spelled out by hand (keys sorted, no whitespace). */
const sha = (canonical: string): string => createHash('sha256').update(canonical, 'utf8').digest('hex');
const SHELL_LS = sha('{"name":"Shell","params":{"command":"ls"}}');

describe('Store tool-call identity and compact Store directories', () => {
  let corpus: IdentityCorpus;
  let tools: Row[];
  let sessions: Row[];
  let messages: Row[];
  let instances: Row[];
  beforeAll(() => {
    corpus = buildIdentityCorpus(tempDir('etl-identity-'));
    const { rows } = freshLoad(tempDir('etl-identity-wh-'), [
      '--cursor-store-root',
      corpus.storeRoot,
      '--cursor-user-dir',
      corpus.userDir,
    ]);
    tools = rows(
      `select t.session_id, t.message_id, t.tool_ordinal, t.tool_id, t.tool_id_origin, t.native_call_id, t.name, t.result
         from tool_calls t join messages m using (session_id, message_id) order by t.session_id, m.ordinal, t.tool_ordinal`,
    );
    sessions = rows('select session_id, resolved_source from sessions order by session_id');
    messages = rows('select session_id, message_id, origin from messages order by session_id, ordinal');
    instances = rows(
      'select session_id, representation, state from source_instances order by session_id, representation',
    );
  }, 120_000);

  const toolsOf = (id: string) => tools.filter((t) => t.session_id === id);

  it('"a new call without one receives tool:v1:<stable-message-id>:<canonical-input-hash>:<one-based-occurrence>": a Store DB call carrying toolCallId gets tool:v1 under its Store message ID; the toolCallId is kept as native_call_id', () => {
    const [, assistant, , openAi] = corpus.leaves.storeOnly;
    const messageId = `store:v1:db:${assistant}:1`;
    expect(
      toolsOf(IDS.storeOnly).map((t) => [
        t.message_id,
        t.tool_id,
        t.tool_id_origin,
        t.native_call_id,
        t.result,
      ]),
    ).toEqual([
      [messageId, `tool:v1:${messageId}:${SHELL_LS}:1`, 'tool-v1', 'call_s02_1', 'a.ts'],
      // Two equal calls in one message: one-based occurrences `:1`, `:2`.
      [messageId, `tool:v1:${messageId}:${SHELL_LS}:2`, 'tool-v1', 'call_s02_2', 'a.ts b.ts'],
      [
        `store:v1:db:${openAi}:1`,
        `tool:v1:store:v1:db:${openAi}:1:${sha('{"name":"Calc","params":{"expr":"1+1"}}')}:1`,
        'tool-v1',
        'call_oa_1',
        '2',
      ],
    ]);
  });

  it('a transcript call with a tool_use id gets tool:v1 under its transcript message ID; the id is native_call_id', () => {
    const [call] = toolsOf(IDS.transcript);
    expect(call!.message_id).toMatch(/^store:v1:transcript:[0-9a-f]{64}:1$/);
    expect(call).toMatchObject({
      tool_id: `tool:v1:${call!.message_id}:${sha('{"name":"Read","params":{"path":"/tmp/x"}}')}:1`,
      tool_id_origin: 'tool-v1',
      native_call_id: 'toolu_t1',
    });
  });

  it('"Matched Store calls enrich the corresponding Composer slot and unmatched Store calls append in Store-native order": the matched slot keeps the Composer ID, the appended call keeps its Store-side ID', () => {
    const storeSide = `store:v1:db:${corpus.leaves.merged[1]}:1`;
    expect(toolsOf(IDS.merged).map((t) => [t.message_id, t.tool_id, t.native_call_id, t.result])).toEqual([
      [
        'a-1',
        `tool:v1:a-1:${sha('{"name":"Read","params":{"path":"/w/a.ts"}}')}:1`,
        'call_m_read',
        'body of a',
      ],
      [
        'a-1',
        `tool:v1:${storeSide}:${sha('{"name":"Grep","params":{"pattern":"TODO"}}')}:1`,
        'call_m_grep',
        'no matches',
      ],
    ]);
    expect(messages.filter((m) => m.session_id === IDS.merged).map((m) => [m.message_id, m.origin])).toEqual([
      ['u-1', 'both'],
      ['a-1', 'both'],
      ['a-2', 'both'],
    ]);
  });

  it('a compact chats/<32 hex>/store.db is the re-dashed session: one session with its transcript beside it, both contributors in source_instances', () => {
    expect(sessions.map((s) => s.session_id)).toContain(IDS.compact);
    expect(sessions.map((s) => s.session_id)).not.toContain(IDS.compactDir);
    expect(sessions.find((s) => s.session_id === IDS.compact)).toMatchObject({ resolved_source: 'store-db' });
    expect(
      instances.filter((i) => i.session_id === IDS.compact).map((i) => `${i.representation}:${i.state}`),
    ).toEqual(['store-db:contributed', 'store-transcript:superseded']);
    const message = `store:v1:db:${corpus.leaves.compact[1]}:1`;
    expect(toolsOf(IDS.compact)).toEqual([
      expect.objectContaining({
        message_id: message,
        tool_id: `tool:v1:${message}:${sha('{"name":"Read","params":{"path":"/w/c.ts"}}')}:1`,
        native_call_id: 'call_c_1',
      }),
    ]);
  });

  it('"Compact 32-hex Store directory names … follow the same byte-exact rule": an uppercase compact name keeps its letters as spelled; a non-hex name is not a compact session', () => {
    const ids = sessions.map((s) => s.session_id);
    expect(ids).toContain(IDS.upper);
    expect(ids).not.toContain(IDS.upper.toLowerCase());
    expect(ids.filter((id) => String(id).toLowerCase().startsWith('0123456789abcdef'))).toEqual([]);
    expect(IDS.notHexDir).toHaveLength(32);
  });
});
