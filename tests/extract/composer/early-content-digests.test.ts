import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { rawText, StateDbBuilder } from '../../../fixtures/composer/state-db-builder.js';
import { digestJobOf, EarlyContentDigests } from '../../../src/extract/composer/early-content-digests.js';
import { ownedContentDigests } from '../../../src/extract/composer/owned-content-digests.js';
import { openSqliteSnapshot } from '../../../src/extract/sqlite/sqlite-snapshot.js';
import { PrivateTempDir } from '../../../src/shared/temp/private-temp-dir.js';
import { tempDir } from '../../helpers/run-cli.js';
import { scriptedWorker } from '../../helpers/scripted-worker.js';

// The worker runs the built entry (`npm test` builds first): Node cannot start a worker on TS sources.
function source(): string {
  const path = join(tempDir('etl-early-digests-'), 'state.vscdb');
  const db = new StateDbBuilder(path, { tables: ['cursorDiskKV'], wal: true });
  for (let i = 0; i < 200; i++)
    db.bubble(i % 3 === 0 ? 'a' : 'b:c', String(i), rawText(`${i} `.repeat(i * 5)));
  db.composerData('a', rawText('{}'));
  db.composerData('b:c', rawText('{"colon":true}'));
  db.put('cursorDiskKV', 'codeBlockDiff:b:c:1', rawText('diff'));
  db.close();
  return path;
}

/** `pass` handed the job of a fresh source's snapshot (read in place); `end` closes the snapshot. */
async function begun(
  pass: EarlyContentDigests | undefined,
  colonIds: ReadonlySet<string> = new Set(),
): Promise<{ db: Database.Database; end: () => void }> {
  const temp = PrivateTempDir.create();
  const snapshot = await openSqliteSnapshot(source(), temp, 'composer', undefined, true);
  expect(pass!.begin(snapshot.db, colonIds)).toBe(true);
  return {
    db: snapshot.db,
    end: () => {
      snapshot.close();
      temp.dispose();
    },
  };
}

describe('EarlyContentDigests', () => {
  it('hands back from its worker what the pass computes on the main thread, once', async () => {
    const pass = EarlyContentDigests.spawn();
    expect(pass).toBeDefined();
    const colonIds = new Set(['b:c']);
    const { db, end } = await begun(pass, colonIds);
    const digests = pass!.take();
    const expected = ownedContentDigests(digestJobOf(db, colonIds)!);
    expect([...expected.keys()].sort()).toEqual(['a', 'b:c']);
    expect(digests).toEqual(expected);
    expect(pass!.take()).toBe(digests);
    end();
  });

  it('answers null at once, not after its wait, when its worker died before the job', async () => {
    const dying = join(tempDir('etl-early-dying-'), 'dying.mjs');
    writeFileSync(dying, "throw new Error('unloadable');\n");
    const pass = EarlyContentDigests.spawn(pathToFileURL(dying));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const { end } = await begun(pass);
    const started = performance.now();
    expect(pass!.take()).toBeNull();
    expect(performance.now() - started).toBeLessThan(1000);
    end();
  });

  it('declines a connection whose file is not its snapshot, and then answers null', () => {
    const pass = EarlyContentDigests.spawn();
    const plain = new Database(source(), { readonly: true });
    expect(pass!.begin(plain, new Set())).toBe(false);
    expect(pass!.take()).toBeNull();
    plain.close();
  });

  it('stops a begun pass nobody took once the plan is final, and then answers null at once', async () => {
    // A worker that, once handed its job, marks a file every 10 ms and never answers.
    const ticks = join(tempDir('etl-early-release-'), 'ticks');
    writeFileSync(ticks, '');
    const ticking = `import('node:fs').then(({ appendFileSync }) =>
  setInterval(() => appendFileSync(${JSON.stringify(ticks)}, '.'), 10));`;
    const pass = EarlyContentDigests.spawn(scriptedWorker('ticking', ticking));
    const { end } = await begun(pass);
    const size = async (): Promise<number> => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return readFileSync(ticks).length;
    };
    expect(await size()).toBeGreaterThan(0);
    pass!.release();
    const started = performance.now();
    expect(pass!.take()).toBeNull();
    expect(performance.now() - started).toBeLessThan(1000);
    const stopped = await size();
    expect(await size()).toBe(stopped);
    end();
  });

  it('gives up after its stall time, not its whole wait, when the worker dies hard mid-pass', async () => {
    const pass = EarlyContentDigests.spawn(scriptedWorker('dies', 'process.exit(1);'), 300);
    const { end } = await begun(pass);
    const started = performance.now();
    expect(pass!.take()).toBeNull();
    // The whole wait on this source is over 10 s.
    expect(performance.now() - started).toBeLessThan(3000);
    end();
  });

  it('waits on past its stall time for a walk that keeps reading', async () => {
    const slow = `const pause = new Int32Array(new SharedArrayBuffer(4));
for (let i = 0; i < 24; i++) { Atomics.wait(pause, 0, 0, 50); Atomics.add(job.source.progress, 0, 1); }
port.postMessage({ digests: new Map([['slow', ['f', 'd']]]) });
Atomics.store(done, 0, 1);
Atomics.notify(done, 0);`;
    const pass = EarlyContentDigests.spawn(scriptedWorker('slow', slow), 300);
    const { end } = await begun(pass);
    expect(pass!.take()).toEqual(new Map([['slow', ['f', 'd']]]));
    end();
  });
});
