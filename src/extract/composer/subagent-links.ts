/**
 * Subagent evidence a global `state.vscdb` keeps outside a session's own rows: its `composerHeaders`
 * row (9 or 10 columns), its JSON header, and parents whose `subagentComposerIds` list it. Read
 * lazily: a run that hydrates nothing reads none of it.
 */
import type Database from 'better-sqlite3';
import type { ReadLimits } from '../limits/read-limits.js';
import { HydrationBudget, prefixUpperBound } from '../sqlite/keyset-pager.js';
import { hasTable } from '../sqlite/sqlite-snapshot.js';
import { cachedStatement } from '../sqlite/statement-cache.js';
import {
  composerSubagentInfo,
  evidence,
  evidenceText,
  type SubagentEvidence,
} from '../subagent/subagent-evidence.js';
import { COMPOSER_DATA_PREFIX } from './bubble-key-owners.js';
import { COMPOSER_HEADERS_KEY, jsonIndexElements } from './item-json.js';

const INFO_FIELDS = {
  composerId: '$.composerId',
  parent: '$.subagentInfo.parentComposerId',
  root: '$.subagentInfo.rootParentConversationId',
  toolCallId: '$.subagentInfo.toolCallId',
  type: '$.subagentInfo.subagentTypeName',
} as const;

function infoOf(values: Record<string, unknown>): Record<string, unknown> {
  return {
    parentComposerId: values.parent,
    rootParentConversationId: values.root,
    toolCallId: values.toolCallId,
    subagentTypeName: values.type,
  };
}

export class SubagentLinks {
  private headerRow: Database.Statement | null | undefined;
  private headerJson: Map<string, SubagentEvidence> | undefined;
  private listing: Map<string, string[]> | undefined;

  constructor(
    private readonly db: Database.Database,
    private readonly limits: ReadLimits,
  ) {}

  /** Every piece of evidence about `composerId`, in source precedence order. */
  of(composerId: string): SubagentEvidence[] {
    const budget = new HydrationBudget(this.limits);
    const found = [
      this.tableRow(composerId, budget),
      this.headers(budget).get(composerId) ?? null,
      ...this.parents(budget, composerId).map((parent) =>
        evidence('parent-listing', {
          parentSessionId: parent,
          rootSessionId: null,
          spawnToolCallId: null,
          subagentType: null,
        }),
      ),
    ];
    return found.filter((e): e is SubagentEvidence => e !== null);
  }

  private tableRow(composerId: string, budget: HydrationBudget): SubagentEvidence | null {
    if (this.headerRow === undefined) this.headerRow = this.prepareHeaderRow();
    if (this.headerRow === null) return null;
    const row = this.headerRow.get(composerId) as Record<string, unknown> | undefined;
    if (row === undefined) return null;
    budget.chargeRows(1);
    return composerSubagentInfo('composer-headers-table', infoOf(row), evidenceText(row.typeName));
  }

  /** The 3.22+ table has `subagentTypeName`; the 3.9–3.15 one does not (both have `isSubagent`). */
  private prepareHeaderRow(): Database.Statement | null {
    if (!hasTable(this.db, 'composerHeaders')) return null;
    const columns = new Set(
      (
        this.db.prepare("SELECT name FROM pragma_table_info('composerHeaders')").all() as { name: string }[]
      ).map((c) => c.name),
    );
    if (!columns.has('composerId') || !columns.has('value')) return null;
    const json = (path: string): string =>
      `CASE WHEN json_valid(CAST(value AS TEXT)) THEN json_extract(CAST(value AS TEXT), '${path}') END`;
    const type = columns.has('subagentTypeName') ? 'subagentTypeName' : 'NULL';
    return this.db.prepare(
      `SELECT ${type} AS typeName, ${json(INFO_FIELDS.parent)} AS parent, ${json(INFO_FIELDS.root)} AS root,
              ${json(INFO_FIELDS.toolCallId)} AS toolCallId, ${json(INFO_FIELDS.type)} AS type
         FROM composerHeaders WHERE composerId = ? AND octet_length(value) <= ${this.limits.sqliteValueBytes}`,
    );
  }

  /**
   * A header index past a read bound gives no evidence: the catalog of the same snapshot met the
   * bound first and reported it for the source (GlobalAttribution).
   */
  private headers(budget: HydrationBudget): Map<string, SubagentEvidence> {
    if (this.headerJson !== undefined) return this.headerJson;
    this.headerJson = new Map();
    if (!hasTable(this.db, 'ItemTable')) return this.headerJson;
    const { elements } = jsonIndexElements(
      this.db,
      'ItemTable',
      COMPOSER_HEADERS_KEY,
      '$.allComposers',
      INFO_FIELDS,
      this.limits,
      budget,
    );
    for (const { values } of elements) {
      const id = evidenceText(values.composerId);
      const found = composerSubagentInfo('composer-header-json', infoOf(values));
      if (id !== null && found !== null && !this.headerJson.has(id)) this.headerJson.set(id, found);
    }
    return this.headerJson;
  }

  /** Parents listing `composerId`, in key order; a `composerData` value over the value bound is skipped. */
  private parents(budget: HydrationBudget, composerId: string): string[] {
    if (this.listing === undefined) {
      this.listing = new Map();
      if (hasTable(this.db, 'cursorDiskKV')) {
        const rows = cachedStatement(
          this.db,
          `SELECT substr(r.key, ${COMPOSER_DATA_PREFIX.length + 1}) AS parent, c.value AS child
             FROM cursorDiskKV AS r, json_each(CAST(r.value AS TEXT), '$.subagentComposerIds') AS c
            WHERE r.key >= ? AND r.key < ? AND octet_length(r.value) <= ?
              AND json_valid(CAST(r.value AS TEXT))
              AND json_type(CAST(r.value AS TEXT), '$.subagentComposerIds') = 'array' AND c.type = 'text'
            ORDER BY r.key, c.key`,
        ).all(COMPOSER_DATA_PREFIX, prefixUpperBound(COMPOSER_DATA_PREFIX), this.limits.sqliteValueBytes) as {
          parent: string;
          child: string;
        }[];
        budget.chargeRows(rows.length);
        for (const { parent, child } of rows) {
          const known = this.listing.get(child) ?? [];
          if (!known.includes(parent)) known.push(parent);
          this.listing.set(child, known);
        }
      }
    }
    return this.listing.get(composerId) ?? [];
  }
}
