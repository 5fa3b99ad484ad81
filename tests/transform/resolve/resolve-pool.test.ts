import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatSessionDir, writeStoreDb } from '../../../fixtures/store/store-session.js';
import type { ComposerGlobalBytes } from '../../../src/extract/composer/composer-contribution.js';
import { resolveReadLimits } from '../../../src/extract/limits/read-limits.js';
import { createReadContext } from '../../../src/extract/read-context.js';
import type { Contribution } from '../../../src/extract/source-adapter.js';
import { StoreAdapter } from '../../../src/extract/store/store-adapter.js';
import type { StoreDbBytesData } from '../../../src/extract/store/store-contribution.js';
import { InternalError } from '../../../src/shared/errors.js';
import { PrivateTempDir } from '../../../src/shared/temp/private-temp-dir.js';
import { IdentitySeal } from '../../../src/transform/redact/identity-seal.js';
import { redactCounted } from '../../../src/transform/redact/redact-session.js';
import { decodedContributions } from '../../../src/transform/resolve/resolve-for-load.js';
import { ResolvePool } from '../../../src/transform/resolve/resolve-pool.js';
import { resolveSession } from '../../../src/transform/resolve-session.js';
import { tempDir } from '../../helpers/run-cli.js';
import { sampleContributions } from '../../helpers/sample-sessions.js';

// Workers run the built entry (`npm test` builds first): Node cannot start a worker on TS sources.
const WORKER = new URL('../../../dist/src/transform/resolve/resolve-worker.js', import.meta.url);
const SCOPE = { omitted: [], broadenedRefs: new Set<string>() };

let groups: Contribution[][];
let pool: ResolvePool | null = null;

// Fresh per test: a request moves its payload buffers to the worker, detaching them here.
beforeEach(async () => {
  groups = await sampleContributions();
});

afterEach(async () => {
  await pool?.close();
  pool = null;
});

describe('ResolvePool (real worker threads)', () => {
  it('resolves every session to exactly the rows the main thread resolves, whatever worker took it', async () => {
    pool = new ResolvePool(2, { preferredSource: 'composer', redaction: null }, WORKER);
    const local = groups.map((contributions) =>
      resolveSession(decodedContributions(contributions), { preferredSource: 'composer' }),
    );
    const resolved = await Promise.all(groups.map((contributions) => pool!.resolve(contributions, SCOPE)));
    expect(resolved.map((r) => r.session)).toEqual(local);
    expect(resolved.every((r) => r.counts === null)).toBe(true);
  });

  it('redacts in the worker and sends the counts back', async () => {
    const redaction = { homePaths: false, sealKey: 'ab'.repeat(32) };
    pool = new ResolvePool(1, { preferredSource: 'composer', redaction }, WORKER);
    const seal = new IdentitySeal(redaction.sealKey);
    const local = await Promise.all(
      groups.map((contributions) =>
        redactCounted(resolveSession(decodedContributions(contributions), { preferredSource: 'composer' }), {
          homePaths: false,
          seal,
        }),
      ),
    );
    const resolved = await Promise.all(groups.map((contributions) => pool!.resolve(contributions, SCOPE)));
    expect(resolved).toEqual(local);
  });

  it("moves the global rows' payload bytes to the worker instead of copying them (they are detached here)", async () => {
    pool = new ResolvePool(1, { preferredSource: 'composer', redaction: null }, WORKER);
    const global = groups.flat().find((c) => c.kind === 'composer-global-bytes')!;
    const bubbles = (global.data as ComposerGlobalBytes).bubbles.map((b) => b.bytes as Uint8Array);
    expect(bubbles.length).toBeGreaterThan(0);
    expect(bubbles.every((bytes) => bytes.byteLength > 0)).toBe(true);
    const session = groups.find((g) => g.includes(global))!;
    const resolved = await pool.resolve(session, SCOPE);
    expect(resolved.session.messages.length).toBeGreaterThan(0);
    expect(bubbles.every((bytes) => bytes.byteLength === 0)).toBe(true);
  });

  it("moves a store.db's leaf bytes to the worker, which decodes them to the rows the main thread resolves", async () => {
    const storeRoot = join(tempDir(), 'store');
    writeStoreDb(
      join(chatSessionDir(storeRoot, '/home/dev/p', 'a1b2c3d4-0000-4000-8000-000000000001'), 'store.db'),
      {
        tree: [
          { message: { role: 'user', content: 'hello' } },
          { message: { role: 'assistant', content: 'hi there' }, encoding: 'protobuf' },
        ],
      },
    );
    const hydrate = async (): Promise<Contribution> => {
      const adapter = new StoreAdapter();
      const temp = PrivateTempDir.create();
      const ctx = createReadContext({
        limits: resolveReadLimits({}),
        temp,
        includeCrossWorkspaceSources: false,
      });
      try {
        const [source] = await adapter.discover({
          cursorUserDir: null,
          cursorStoreRoot: storeRoot,
          inputs: [],
          backups: [],
          carrier: 'custom',
        });
        for await (const occurrence of adapter.catalog(source!))
          return await adapter.hydrate(occurrence, ctx);
        throw new Error('expected an occurrence');
      } finally {
        adapter.close();
        temp.dispose();
      }
    };
    const contribution = await hydrate();
    expect(contribution.kind).toBe('store-db-bytes');
    const leaves = (contribution.data as StoreDbBytesData).leafBytes.map((l) => l.bytes as Uint8Array);
    expect(leaves.map((bytes) => bytes.byteLength > 0)).toEqual([true, true]);
    const local = resolveSession(decodedContributions([await hydrate()]), { preferredSource: 'composer' });
    expect(local.messages.map((m) => m.content)).toEqual(['hello', 'hi there']);
    pool = new ResolvePool(1, { preferredSource: 'composer', redaction: null }, WORKER);
    const resolved = await pool.resolve([contribution], SCOPE);
    expect(resolved.session).toEqual(local);
    expect(leaves.every((bytes) => bytes.byteLength === 0)).toBe(true);
  });

  it('an error thrown in the worker surfaces typed, and the pool goes on', async () => {
    pool = new ResolvePool(1, { preferredSource: 'composer', redaction: null }, WORKER);
    const failed = await pool.resolve([], SCOPE).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(InternalError);
    expect((failed as InternalError).code).toBe('EMPTY_SESSION_GROUP');
    expect((await pool.resolve(groups[0]!, SCOPE)).session.session.session_id).toBe(
      groups[0]![0]!.occurrence.sessionId,
    );
  });

  it('a worker that dies fails the pending and every later request with RESOLVE_WORKER_FAILED, never a hang', async () => {
    const dying = join(tempDir('etl-pool-'), 'dying-worker.mjs');
    writeFileSync(
      dying,
      "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => process.exit(3));\n",
    );
    pool = new ResolvePool(1, { preferredSource: 'composer', redaction: null }, pathToFileURL(dying));
    for (const attempt of [pool.resolve(groups[0]!, SCOPE), pool.resolve(groups[1]!, SCOPE)]) {
      await expect(attempt).rejects.toMatchObject({
        code: 'RESOLVE_WORKER_FAILED',
        details: { cause: 'exit 3' },
      });
    }
    await expect(pool.resolve(groups[0]!, SCOPE)).rejects.toBeInstanceOf(InternalError);
  });

  it('after close, requests are refused instead of waiting on a terminated worker', async () => {
    pool = new ResolvePool(1, { preferredSource: 'composer', redaction: null }, WORKER);
    await pool.close();
    await expect(pool.resolve(groups[0]!, SCOPE)).rejects.toMatchObject({ code: 'RESOLVE_POOL_CLOSED' });
  });
});
