/**
 * What `etl doctor` learns of one discovered source from metadata alone: its Cursor layout
 * generation, key-range counts of messages and blobs, and version hints. Values are inspected only
 * inside SQLite (`json_extract`); no payload text leaves this module.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { parseConversationState } from './agentkv/conversation-state.js';
import { OPTIONAL_RUN_COLUMNS, presentColumns } from './sdk/sdk-index-reader.js';
import type { DiscoveredSource } from './source-adapter.js';
import { Database } from './sqlite/sqlite-driver.js';

/** A layout generation of reference §6.5 and §9, or the source kind's own name. */
export type LayoutGeneration =
  | 'global-db'
  | 'global-db-agentkv'
  | 'sdk-index'
  | 'sdk-index-legacy-runs'
  | 'workspace-pre-3.0'
  | 'workspace-3.0-pointer'
  | 'workspace-legacy-chat'
  | 'workspace-no-chat'
  | 'store-db'
  | 'transcript'
  | 'subagent-transcript'
  | 'legacy-transcript'
  | 'capture'
  | 'backup'
  | 'unreadable';

export interface ComposerHeadersHint {
  /** 10 with `subagentTypeName` (3.22+), 9 without (3.9–3.15). */
  columns: number;
  rows: number;
  subagentRows: number;
}

export interface SourceProbe {
  generation: LayoutGeneration;
  /** Messages countable from keys (`bubbleId:` rows); null where counting would read payloads. */
  messages: number | null;
  /** Content-addressed blobs (`agentKv:blob:` rows, Store `blobs`); null where the kind has none. */
  blobs: number | null;
  /** agentKv JSON message blobs no `conversationState` prompt list or bubble `requestId` links. */
  unlinkedBlobs: number | null;
  /** SDK `runs` rows; null for other kinds. */
  runs: number | null;
  /** The `_v` range of the `composerData:` documents. */
  composerVersions: { min: number; max: number } | null;
  composerHeaders: ComposerHeadersHint | null;
  /** `agentKv:` pointer keys whose values are not read (§1.1: encoding or payload unknown). */
  agentKvPointers: AgentKvPointers | null;
  /** `composer.composerHeaders.*` flags (`version`, `migratedToTable`, `tableGateEnabled`) when set. */
  headerFlags: Record<string, string | number | boolean>;
}

export interface AgentKvPointers {
  checkpoint: number;
  bubbleCheckpoint: number;
  artifact: number;
}

const HEADER_FLAGS = ['version', 'migratedToTable', 'tableGateEnabled'] as const;

const KIND_GENERATION: Partial<Record<DiscoveredSource['kind'], LayoutGeneration>> = {
  'store-transcript': 'transcript',
  'store-subagent-transcript': 'subagent-transcript',
  'store-legacy-transcript': 'legacy-transcript',
  'capture-file': 'capture',
  'backup-archive': 'backup',
};

function emptyProbe(generation: LayoutGeneration): SourceProbe {
  return {
    generation,
    messages: null,
    blobs: null,
    unlinkedBlobs: null,
    runs: null,
    composerVersions: null,
    composerHeaders: null,
    agentKvPointers: null,
    headerFlags: {},
  };
}

function hasTable(db: BetterSqlite3.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

/** Rows whose key starts with `prefix`, counted over the key index (`;` follows `:`). */
function keyRangeCount(db: BetterSqlite3.Database, prefix: string): number {
  const end = `${prefix.slice(0, -1)};`;
  const row = db
    .prepare('SELECT count(*) AS n FROM cursorDiskKV WHERE key >= ? AND key < ?')
    .get(prefix, end) as {
    n: number;
  };
  return row.n;
}

/** A flag is shown only as a short scalar; anything else is only "present". */
function flagValue(raw: unknown): string | number | boolean {
  const text = Buffer.isBuffer(raw) ? raw.toString('utf8') : String(raw);
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === 'number' || typeof value === 'boolean') return value;
    if (typeof value === 'string' && value.length <= 40) return value;
  } catch {
    // Not JSON: reported as present.
  }
  return 'present';
}

/** JSON message blobs (legacy hex text decoded inside SQLite) with the request a user blob opens. */
const JSON_BLOBS_SQL = `SELECT id, CASE WHEN json_extract(t, '$.role') = 'user'
      THEN json_extract(t, '$.providerOptions.cursor.requestId') END AS rid
  FROM (SELECT substr(key, 14) AS id, CAST(CASE WHEN typeof(value) = 'text' AND length(value) % 2 = 0
          AND value GLOB '7[bB]*' AND NOT json_valid(value) THEN unhex(value) ELSE value END AS TEXT) AS t
          FROM cursorDiskKV WHERE key >= 'agentKv:blob:' AND key < 'agentKv:blob;' AND value IS NOT NULL)
 WHERE substr(t, 1, 1) = '{' AND json_valid(t)`;

/**
 * The links a run follows to JSON blobs (§1.4a prompt lists, §1.4b request IDs), resolved from
 * link metadata only; content hashes are not checked and turn parts (protobuf) are not followed.
 */
function unlinkedJsonBlobs(db: BetterSqlite3.Database): number {
  const blobs = db.prepare(JSON_BLOBS_SQL).all() as { id: string; rid: unknown }[];
  if (blobs.length === 0) return 0;
  const linked = new Set<string>();
  const states = db
    .prepare(
      `SELECT json_extract(CAST(value AS TEXT), '$.conversationState') FROM cursorDiskKV
        WHERE key >= 'composerData:' AND key < 'composerData;' AND json_valid(CAST(value AS TEXT))`,
    )
    .pluck(true)
    .iterate() as Iterable<unknown>;
  for (const state of states)
    if (typeof state === 'string')
      for (const id of parseConversationState(state)?.promptIds ?? []) linked.add(id);
  const open = blobs.filter((b) => !linked.has(b.id));
  if (open.some((b) => typeof b.rid === 'string')) {
    const requests = new Set(
      db
        .prepare(
          `SELECT DISTINCT json_extract(CAST(value AS TEXT), '$.requestId') FROM cursorDiskKV
            WHERE key >= 'bubbleId:' AND key < 'bubbleId;' AND json_valid(CAST(value AS TEXT))`,
        )
        .pluck(true)
        .all(),
    );
    return open.filter((b) => !(typeof b.rid === 'string' && requests.has(b.rid))).length;
  }
  return open.length;
}

function globalProbe(db: BetterSqlite3.Database): SourceProbe {
  const probe = emptyProbe('global-db');
  if (hasTable(db, 'cursorDiskKV')) {
    probe.messages = keyRangeCount(db, 'bubbleId:');
    probe.blobs = keyRangeCount(db, 'agentKv:blob:');
    if (probe.blobs > 0) {
      probe.generation = 'global-db-agentkv';
      probe.unlinkedBlobs = unlinkedJsonBlobs(db);
    }
    const pointers = {
      checkpoint: keyRangeCount(db, 'agentKv:checkpoint:'),
      bubbleCheckpoint: keyRangeCount(db, 'agentKv:bubbleCheckpoint:'),
      artifact: keyRangeCount(db, 'agentKv:artifact:'),
    };
    if (pointers.checkpoint + pointers.bubbleCheckpoint + pointers.artifact > 0)
      probe.agentKvPointers = pointers;
    const range = db
      .prepare(
        `SELECT min(v) AS min, max(v) AS max FROM (
           SELECT json_extract(CAST(value AS TEXT), '$._v') AS v FROM cursorDiskKV
            WHERE key >= 'composerData:' AND key < 'composerData;' AND json_valid(CAST(value AS TEXT)))
          WHERE typeof(v) = 'integer'`,
      )
      .get() as { min: number | null; max: number | null };
    if (range.min !== null && range.max !== null) probe.composerVersions = { min: range.min, max: range.max };
  }
  if (hasTable(db, 'composerHeaders')) {
    const columns = (db.prepare('PRAGMA table_info(composerHeaders)').all() as { name: string }[]).map(
      (c) => c.name,
    );
    const subagent = columns.includes('isSubagent') ? 'sum(isSubagent = 1)' : '0';
    const row = db
      .prepare(`SELECT count(*) AS rows, coalesce(${subagent}, 0) AS sub FROM composerHeaders`)
      .get() as {
      rows: number;
      sub: number;
    };
    probe.composerHeaders = { columns: columns.length, rows: row.rows, subagentRows: row.sub };
  }
  for (const flag of HEADER_FLAGS) {
    const key = `composer.composerHeaders.${flag}`;
    for (const table of ['ItemTable', 'cursorDiskKV']) {
      if (!hasTable(db, table) || flag in probe.headerFlags) continue;
      const row = db.prepare(`SELECT value FROM ${table} WHERE key = ?`).get(key) as
        | { value: unknown }
        | undefined;
      if (row !== undefined && row.value !== null) probe.headerFlags[flag] = flagValue(row.value);
    }
  }
  return probe;
}

function workspaceProbe(db: BetterSqlite3.Database): SourceProbe {
  if (!hasTable(db, 'ItemTable')) return emptyProbe('workspace-no-chat');
  const row = db
    .prepare(
      `SELECT json_type(CAST(value AS TEXT), '$.allComposers') AS listed,
              json_extract(CAST(value AS TEXT), '$.hasMigratedComposerData') AS migrated
         FROM ItemTable WHERE key = 'composer.composerData' AND json_valid(CAST(value AS TEXT))`,
    )
    .get() as { listed: string | null; migrated: number | null } | undefined;
  const legacy =
    db.prepare("SELECT 1 FROM ItemTable WHERE key = 'workbench.panel.aichat.view.aichat.chatdata'").get() !==
    undefined;
  if (row?.listed === 'array') return emptyProbe('workspace-pre-3.0');
  if (row !== undefined && row.migrated === 1) return emptyProbe('workspace-3.0-pointer');
  return emptyProbe(legacy ? 'workspace-legacy-chat' : 'workspace-no-chat');
}

function storeProbe(db: BetterSqlite3.Database): SourceProbe {
  const probe = emptyProbe('store-db');
  if (hasTable(db, 'blobs'))
    probe.blobs = (db.prepare('SELECT count(*) AS n FROM blobs').get() as { n: number }).n;
  return probe;
}

/** `runs` without `request_id`/`usage_json` is the older SDK schema (§3.2). */
function sdkProbe(db: BetterSqlite3.Database): SourceProbe {
  if (!hasTable(db, 'runs')) return emptyProbe('sdk-index');
  const newer = presentColumns(db, 'runs', OPTIONAL_RUN_COLUMNS).length === OPTIONAL_RUN_COLUMNS.length;
  const probe = emptyProbe(newer ? 'sdk-index' : 'sdk-index-legacy-runs');
  probe.runs = (db.prepare('SELECT count(*) AS n FROM runs').get() as { n: number }).n;
  return probe;
}

function sqliteProbe(path: string, read: (db: BetterSqlite3.Database) => SourceProbe): SourceProbe {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    db.pragma('query_only = ON');
    return read(db);
  } finally {
    db.close();
  }
}

/** Throws the driver's error when a database cannot be opened or queried; the caller reports its code. */
export function probeSource(source: DiscoveredSource): SourceProbe {
  if (source.kind === 'composer-global-db') return sqliteProbe(source.locator, globalProbe);
  if (source.kind === 'composer-workspace-db') return sqliteProbe(source.locator, workspaceProbe);
  if (source.kind === 'sdk-agent-index') return sqliteProbe(source.locator, sdkProbe);
  if (source.kind === 'store-session-dir') {
    const db = join(source.locator, 'store.db');
    return isFile(db) ? sqliteProbe(db, storeProbe) : emptyProbe('store-db');
  }
  return emptyProbe(KIND_GENERATION[source.kind] ?? 'capture');
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Files of an agent home a run reads but doctor does not catalog, counted by name only. */
export interface AgentHomeExtras {
  sdkAgentStores: number;
  codeTrackingDb: boolean;
}

export function agentHomeExtras(root: string): AgentHomeExtras {
  let sdkAgentStores = 0;
  for (const project of safeList(join(root, 'projects')))
    for (const hash of safeList(join(root, 'projects', project, 'sdk-agent-store')))
      if (isFile(join(root, 'projects', project, 'sdk-agent-store', hash, 'index.db'))) sdkAgentStores++;
  return { sdkAgentStores, codeTrackingDb: isFile(join(root, 'ai-tracking', 'ai-code-tracking.db')) };
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
