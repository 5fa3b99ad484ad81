import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import {
  headIndex,
  legacyChatData,
  writeWorkspace,
} from '../../../fixtures/composer/workspace-db-builder.js';
import { ComposerAdapter } from '../../../src/extract/composer/composer-adapter.js';
import type { WorkspaceHandle } from '../../../src/extract/composer/workspace-read-ahead.js';
import { WorkspaceReadAhead } from '../../../src/extract/composer/workspace-read-ahead.js';
import { resolveReadLimits } from '../../../src/extract/limits/read-limits.js';
import { createReadContext } from '../../../src/extract/read-context.js';
import type { ReadContext, SessionOccurrence } from '../../../src/extract/source-adapter.js';
import { PrivateTempDir } from '../../../src/shared/temp/private-temp-dir.js';
import { catalogSources } from '../../../src/sync/catalog-sources.js';
import { tempDir } from '../../helpers/run-cli.js';

const temps: PrivateTempDir[] = [];
const dbs: Database.Database[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
  for (const temp of temps.splice(0)) temp.dispose();
});

function context(): ReadContext {
  const temp = PrivateTempDir.create();
  temps.push(temp);
  return createReadContext({ limits: resolveReadLimits({}), temp, includeCrossWorkspaceSources: false });
}

const id = (w: number, i: number): string => `0000000${w}-0000-4000-8000-00000000000${i}`;

/** Two workspaces of three `head` sessions each (with generations), the first also with a legacy tab. */
function buildUserDir(): string {
  const userDir = join(tempDir(), 'User');
  for (const w of [1, 2]) {
    const entries = [1, 2, 3].map((i) => ({ id: id(w, i), name: `s${i}`, createdAt: 1_000 * i }));
    writeWorkspace(userDir, {
      storageId: `ws${w}`,
      workspaceJson: { folder: `file:///home/u/p${w}` },
      composerIndex: headIndex(entries),
      generations: [{ unixMs: 1_500, generationUUID: `g${w}`, textDescription: 'hello' }],
      ...(w === 1 ? { legacyChat: legacyChatData([{ tabId: id(w, 9), bubbles: [] }]) } : {}),
    });
  }
  return userDir;
}

async function workspaceOccurrences(adapter: ComposerAdapter, userDir: string): Promise<SessionOccurrence[]> {
  const roots = {
    cursorUserDir: userDir,
    cursorStoreRoot: null,
    inputs: [],
    backups: [],
    carrier: 'custom' as const,
  };
  const sources = await adapter.discover(roots);
  const cataloged = await catalogSources(
    sources.map((source) => ({ adapter, source })),
    context(),
  );
  const all = [...cataloged.values()].flat().map((entry) => entry.occurrence);
  // Alternating workspaces, as session-ID order visits them.
  return all
    .filter((o) => o.representation === 'composer-workspace')
    .sort((a, b) => (a.sessionId.slice(-1) + a.sessionId < b.sessionId.slice(-1) + b.sessionId ? -1 : 1));
}

async function hydrateAll(planned: boolean, userDir: string) {
  const adapter = new ComposerAdapter();
  try {
    const occurrences = await workspaceOccurrences(adapter, userDir);
    if (planned) adapter.planHydration(occurrences);
    const ctx = context();
    const contributions = [];
    for (const occurrence of occurrences) {
      const { kind, data, diagnostics } = await adapter.hydrate(occurrence, ctx);
      contributions.push({ ref: occurrence.occurrenceRef, kind, data, diagnostics });
    }
    return { contributions, counters: { ...ctx.counters } };
  } finally {
    adapter.close();
  }
}

describe('workspace entries read ahead', () => {
  it('hydrating with a plan yields the contributions and read counters of hydrating without one', async () => {
    const userDir = buildUserDir();
    const plain = await hydrateAll(false, userDir);
    const planned = await hydrateAll(true, userDir);
    expect(plain.contributions).toHaveLength(7);
    expect(
      plain.contributions.some((c) => (c.data as { generations: unknown[] }).generations.length > 0),
    ).toBe(true);
    expect(planned).toEqual(plain);
  });

  it('one visit to a DB reads its planned entries; each is counted only when taken', async () => {
    const userDir = buildUserDir();
    const adapter = new ComposerAdapter();
    try {
      const occurrences = (await workspaceOccurrences(adapter, userDir)).filter(
        (o) => (o.handle as WorkspaceHandle).entry.kind === 'head',
      );
      const [first, ...rest] = occurrences;
      const db = new Database((first!.handle as WorkspaceHandle).locator, { readonly: true });
      dbs.push(db);
      const ahead = new WorkspaceReadAhead();
      ahead.plan(occurrences);
      const ctx = context();
      const read = ahead.read(db, first!, ctx);
      expect(read.data.entry).not.toBeNull();
      const afterVisit = { ...ctx.counters };
      expect(afterVisit.payloadReads).toBe(2);
      db.close();
      const sameDb = rest.filter((o) => (o.handle as WorkspaceHandle).locator === db.name);
      const otherDb = rest.filter((o) => (o.handle as WorkspaceHandle).locator !== db.name);
      expect(sameDb).toHaveLength(2);
      for (const occurrence of sameDb) expect(ahead.take(occurrence, ctx)?.data.entry).not.toBeNull();
      expect(ctx.counters.payloadReads).toBe(afterVisit.payloadReads + 4);
      for (const occurrence of otherDb) expect(ahead.take(occurrence, ctx)).toBeNull();
    } finally {
      adapter.close();
    }
  });

  it('one visit asks for the ItemTable and the index item once, whatever the number of entries it reads', async () => {
    const userDir = buildUserDir();
    const adapter = new ComposerAdapter();
    try {
      const occurrences = (await workspaceOccurrences(adapter, userDir)).filter(
        (o) => (o.handle as WorkspaceHandle).entry.kind === 'head',
      );
      const first = occurrences[0]!;
      const traced: string[] = [];
      const db = new Database((first.handle as WorkspaceHandle).locator, {
        readonly: true,
        verbose: (sql) => traced.push(String(sql)),
      });
      dbs.push(db);
      const ahead = new WorkspaceReadAhead();
      ahead.plan(occurrences);
      const ctx = context();
      expect(ahead.read(db, first, ctx).data.entry).not.toBeNull();
      const sameDb = occurrences.filter((o) => (o.handle as WorkspaceHandle).locator === db.name);
      expect(sameDb).toHaveLength(3);
      for (const occurrence of sameDb.slice(1))
        expect(ahead.take(occurrence, ctx)?.data.entry).not.toBeNull();
      expect(traced.filter((sql) => sql.includes('sqlite_master'))).toHaveLength(1);
      expect(traced.filter((sql) => sql.includes('json_valid'))).toHaveLength(1);
      expect(traced.filter((sql) => sql.includes('json_extract'))).toHaveLength(3);
    } finally {
      adapter.close();
    }
  });

  it('stops reading ahead at its byte bound and where a read fails, leaving those to their own hydration', async () => {
    const userDir = buildUserDir();
    const adapter = new ComposerAdapter();
    try {
      const occurrences = (await workspaceOccurrences(adapter, userDir)).filter((o) =>
        (o.handle as WorkspaceHandle).locator.includes('ws1'),
      );
      const db = new Database((occurrences[0]!.handle as WorkspaceHandle).locator, { readonly: true });
      dbs.push(db);
      const bounded = new WorkspaceReadAhead(1);
      bounded.plan(occurrences);
      const ctx = context();
      bounded.read(db, occurrences[0]!, ctx);
      expect(occurrences.slice(1).map((o) => bounded.take(o, ctx) !== null)).toEqual([true, false, false]);

      const failing = new WorkspaceReadAhead();
      failing.plan(occurrences);
      // The second entry's element read fails like a damaged page would.
      const broken = Object.create(db, {
        prepare: {
          value(sql: string) {
            const statement = db.prepare(sql);
            if (!sql.includes('json_extract(CAST(value AS TEXT), ?)')) return statement;
            return {
              get(path: string, rowid: number) {
                if (path === '$.allComposers[1]') throw new Error('disk I/O error');
                return statement.get(path, rowid);
              },
            };
          },
        },
      }) as Database.Database;
      expect(failing.read(broken, occurrences[0]!, ctx).data.entry).not.toBeNull();
      expect(occurrences.slice(1).map((o) => failing.take(o, ctx))).toEqual([null, null, null]);
    } finally {
      adapter.close();
    }
  });
});
