/**
 * Property families of archive trust: session and bubble IDs from an adversarial alphabet (prefix
 * chains, wildcards, quotes, unicode) and message IDs claimed by several bubbles, each archived,
 * then changed and re-run with `--since-last`; `etl verify` passes after every run.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bubbleValue, writeComposer } from '../../fixtures/composer/composer-session.js';
import { json, StateDbBuilder } from '../../fixtures/composer/state-db-builder.js';
import {
  adversarialComposers,
  adversarialSessionIds,
  adversarialText,
  writeComposers,
} from '../../fixtures/hostile/adversarial-ids.js';
import { archivedSessions, archiveRun, verifyProblems } from '../helpers/archive-run.js';
import { tempDir } from '../helpers/run-cli.js';

const ID_SEEDS = [1, 2, 3, 4, 5, 6];
const COLLISION_CLAIMANTS = [1, 2, 4];

function globalDb(userDir: string): StateDbBuilder {
  return new StateDbBuilder(join(userDir, 'globalStorage', 'state.vscdb'));
}

describe('adversarial session IDs: every message stays in its own session', () => {
  for (const seed of ID_SEEDS) {
    it(`seed ${seed}: 32 IDs archived exactly, then one more message each under --since-last`, async () => {
      const root = tempDir('etl-trust-ids-');
      const userDir = join(root, 'User');
      const composers = adversarialComposers(seed, adversarialSessionIds(seed, 32));
      let db = globalDb(userDir);
      writeComposers(db, composers);
      db.close();
      const warehouse = join(root, 'w.duckdb');
      const first = await archiveRun(warehouse, ['--cursor-user-dir', userDir]);
      expect({ code: first.code, codes: first.codes }).toEqual({ code: 0, codes: [] });
      const texts = (): Promise<Map<string, string[]>> =>
        archivedSessions(warehouse).then((s) => new Map([...s].map(([id, v]) => [id, v.texts])));
      expect(await texts()).toEqual(new Map(composers.map((c) => [c.id, c.bubbles.map((b) => b.text)])));
      expect(await verifyProblems(warehouse)).toEqual([]);
      db = globalDb(userDir);
      composers.forEach((composer, i) => {
        db.bubble(
          composer.id,
          'later',
          json(bubbleValue({ id: 'later', role: 'user', text: adversarialText(i, 9) })),
        );
      });
      db.close();
      const second = await archiveRun(warehouse, ['--cursor-user-dir', userDir], ['--since-last']);
      expect({ code: second.code, codes: second.codes }).toEqual({ code: 0, codes: [] });
      expect(await texts()).toEqual(
        new Map(composers.map((c, i) => [c.id, [...c.bubbles.map((b) => b.text), adversarialText(i, 9)]])),
      );
      expect(await verifyProblems(warehouse)).toEqual([]);
    });
  }
});

describe('"A Store-only collision appends the smallest available :collision:<n>": bubbles claiming one message ID', () => {
  for (const claimants of COLLISION_CLAIMANTS) {
    for (const position of ['first', 'last'] as const) {
      it(`${claimants} claimant(s) at the ${position} rowid: new session partial, archived one unchanged`, async () => {
        const root = tempDir('etl-trust-collision-');
        const userDir = join(root, 'User');
        const archived = 'c0111150-0000-4000-8000-00000000000a';
        const fresh = 'c0111150-0000-4000-8000-00000000000b';
        let db = globalDb(userDir);
        writeComposer(db, { id: archived, bubbles: [{ id: 'm', role: 'user', text: 'original' }] });
        db.close();
        const warehouse = join(root, 'w.duckdb');
        expect((await archiveRun(warehouse, ['--cursor-user-dir', userDir])).code).toBe(0);
        const before = (await archivedSessions(warehouse)).get(archived);
        db = globalDb(userDir);
        for (const [at, id] of [archived, fresh].entries()) {
          if (id === fresh) writeComposer(db, { id, bubbles: [{ id: 'm', role: 'user', text: 'original' }] });
          for (let n = 0; n < claimants; n++) {
            const value = json(bubbleValue({ id: 'm', role: 'assistant', text: `claimant ${n}` }));
            db.bubble(id, `k${n}`, value, position === 'first' ? -100 * (at + 1) - n : undefined);
          }
        }
        db.close();
        const run = await archiveRun(warehouse, ['--cursor-user-dir', userDir], ['--since-last']);
        expect(run.code).toBe(0);
        expect(run.codes).toContain('COMPOSER_MESSAGE_ID_COLLISION');
        const after = await archivedSessions(warehouse);
        expect(after.get(archived)).toEqual(before);
        expect(after.get(fresh)?.fidelity).toBe('partial');
        expect(after.get(fresh)?.texts).toHaveLength(claimants + 1);
        expect(await verifyProblems(warehouse)).toEqual([]);
      });
    }
  }
});
