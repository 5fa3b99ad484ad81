/** Loads a time corpus through the built CLI and reads back, per case, what the warehouse claims. */
import { join } from 'node:path';
import { expect } from 'vitest';
import {
  buildTimeCorpus,
  type InstantToken,
  type TimeCase,
  type TimeField,
} from '../../fixtures/time/time-corpus.js';
import { queryRows } from './query-warehouse.js';
import { runCli, tempDir } from './run-cli.js';

interface Claim {
  table: 'sessions' | 'messages';
  column: string;
  source: string;
  /** The `field` its TIME_VALUE_UNKNOWN names, when not the case's own name. */
  diagnosticField?: string;
  /** A source whose one time form (a SpecStory minute stamp) no generated valid token takes. */
  hostileOnly?: true;
}

const TIMING: Claim = { table: 'messages', column: 'timestamp_source', source: 'composer-timing' };
/** Legacy chat times are kept with source `unknown` (contract: origin cannot be proved), never the epoch. */
const LEGACY: Claim = { table: 'messages', column: 'timestamp_source', source: 'unknown' };

/** The provenance a field's value would have had if it had been read as a time. */
const CLAIM: Record<TimeField, Claim> = {
  'composer.createdAt': { table: 'sessions', column: 'created_at_source', source: 'composer-metadata' },
  'composer.lastUpdatedAt': { table: 'sessions', column: 'updated_at_source', source: 'composer-metadata' },
  'composer.updatedAt': { table: 'sessions', column: 'updated_at_source', source: 'composer-metadata' },
  'composer.lastSendTime': { table: 'sessions', column: 'updated_at_source', source: 'composer-metadata' },
  'bubble.createdAt': { table: 'messages', column: 'timestamp_source', source: 'composer-created-at' },
  'bubble.timingInfo.clientRpcSendTime': TIMING,
  'bubble.timingInfo.clientSettleTime': TIMING,
  'bubble.timingInfo.clientEndTime': TIMING,
  'legacy-chat.timestamp': LEGACY,
  'legacy-chat.createdAt': LEGACY,
  'aiService.generations.unixMs': TIMING,
  'meta.json.createdAtMs': { table: 'sessions', column: 'created_at_source', source: 'store-meta' },
  'meta.json.updatedAtMs': { table: 'sessions', column: 'updated_at_source', source: 'store-meta' },
  'store.meta.createdAt': { table: 'sessions', column: 'created_at_source', source: 'store-db-metadata' },
  'cli.timestamp_ms': { table: 'messages', column: 'timestamp_source', source: 'capture-event' },
  'cloud.agent.createdAt': { table: 'sessions', column: 'created_at_source', source: 'capture-metadata' },
  'cloud.agent.updatedAt': { table: 'sessions', column: 'updated_at_source', source: 'capture-metadata' },
  'cloud.run.createdAt': { table: 'messages', column: 'timestamp_source', source: 'capture-event' },
  'cloud-v0.agent.createdAt': {
    table: 'sessions',
    column: 'created_at_source',
    source: 'capture-metadata',
    diagnosticField: 'cloud.agent.createdAt',
  },
  'specstory.session-stamp': {
    table: 'sessions',
    column: 'created_at_source',
    source: 'capture-metadata',
    hostileOnly: true,
  },
  'specstory.user-stamp': {
    table: 'messages',
    column: 'timestamp_source',
    source: 'capture-event',
    hostileOnly: true,
  },
};

const VALUE_COLUMN: Record<string, string> = {
  created_at_source: 'created_at',
  updated_at_source: 'updated_at',
  timestamp_source: 'timestamp',
};

/**
 * Runs the corpus of `tokens` and asserts, for every case: the run committed, the session is
 * stored, the field's value is not claimed as a time, and a TIME_VALUE_UNKNOWN names the field.
 */
export async function expectHostileTimesUnknown(tokens: readonly string[]): Promise<void> {
  const root = tempDir('etl-time-');
  const { cases, sources } = buildTimeCorpus(join(root, 'src'), tokens);
  const warehouse = join(root, 'w.duckdb');
  const run = runCli(['run', '--json', ...sources, '--target', `duckdb:${warehouse}`]);
  expect(run.stderr).not.toContain('INTERNAL_ERROR');
  expect([0, 3]).toContain(run.code);
  const [status] = await queryRows(warehouse, 'SELECT status FROM etl_runs');
  expect(status?.status).not.toBe('failed');
  const sessions = new Set(
    (await queryRows(warehouse, 'SELECT session_id FROM sessions')).map((r) => r.session_id as string),
  );
  const claims = new Set<string>();
  for (const table of ['sessions', 'messages'] as const)
    for (const column of table === 'sessions'
      ? ['created_at_source', 'updated_at_source']
      : ['timestamp_source'])
      for (const row of await queryRows(
        warehouse,
        // The epoch is the contract's placeholder for an unknown time, never a claim.
        `SELECT DISTINCT session_id, ${column} AS s FROM ${table}
         WHERE epoch_ms(${VALUE_COLUMN[column]}) <> 0`,
      ))
        claims.add(`${row.session_id}|${table}.${column}|${row.s}`);
  const diagnosed = new Set(
    (
      await queryRows(
        warehouse,
        "SELECT session_id, details->>'field' AS field FROM diagnostics WHERE code = 'TIME_VALUE_UNKNOWN'",
      )
    ).map((r) => `${r.session_id}|${r.field}`),
  );
  const failures = cases.flatMap((c: TimeCase) => {
    const claim = CLAIM[c.field];
    const problems: string[] = [];
    if (!sessions.has(c.sessionId)) problems.push('not stored');
    if (claims.has(`${c.sessionId}|${claim.table}.${claim.column}|${claim.source}`))
      problems.push(`read as ${claim.source}`);
    if (!diagnosed.has(`${c.sessionId}|${claim.diagnosticField ?? c.field}`))
      problems.push('no TIME_VALUE_UNKNOWN');
    return problems.length === 0 ? [] : [`${c.field} = ${c.token}: ${problems.join(', ')}`];
  });
  expect(failures).toEqual([]);
}

/**
 * Runs the corpus of valid `values` and asserts, for every case: the run committed, the session is
 * stored, and the field's instant is stored with the field's provenance.
 */
export async function expectTimesStored(values: readonly InstantToken[]): Promise<void> {
  const root = tempDir('etl-time-');
  const expected = new Map(values.map((v) => [v.token, v.ms]));
  const { cases, sources } = buildTimeCorpus(join(root, 'src'), [...expected.keys()]);
  const warehouse = join(root, 'w.duckdb');
  const run = runCli(['run', '--json', ...sources, '--target', `duckdb:${warehouse}`]);
  expect(run.code, run.stderr).toBe(0);
  expect(JSON.parse(run.stdout).run.status).toBe('committed');
  const stored = new Set<string>();
  for (const table of ['sessions', 'messages'] as const)
    for (const source of table === 'sessions'
      ? ['created_at_source', 'updated_at_source']
      : ['timestamp_source'])
      for (const row of await queryRows(
        warehouse,
        `SELECT DISTINCT session_id, ${source} AS s, epoch_ms(${VALUE_COLUMN[source]}) AS ms FROM ${table}`,
      ))
        stored.add(`${row.session_id}|${table}.${source}|${row.s}|${row.ms}`);
  const failures = cases.flatMap((c: TimeCase) => {
    const claim = CLAIM[c.field];
    if (claim.hostileOnly) return [];
    const key = `${c.sessionId}|${claim.table}.${claim.column}|${claim.source}|${expected.get(c.token)}`;
    return stored.has(key) ? [] : [`${c.field} = ${c.token}: not stored as ${expected.get(c.token)}`];
  });
  expect(failures).toEqual([]);
}
