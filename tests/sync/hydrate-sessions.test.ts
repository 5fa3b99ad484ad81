import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeComposer } from '../../fixtures/composer/composer-session.js';
import { StateDbBuilder } from '../../fixtures/composer/state-db-builder.js';
import { breakOverflowChain } from '../../fixtures/hostile/broken-overflow-chain.js';
import { queryRows } from '../helpers/query-warehouse.js';
import { runCli, tempDir } from '../helpers/run-cli.js';

const IDS = ['c4000000-0000-4000-8000-000000000001', 'c4000000-0000-4000-8000-000000000002'];
const DAMAGED = IDS[0]!;
const MARKER = 'overflow-marker-';

describe('a session whose read meets a corrupt page', () => {
  it('"otherwise it is fatal for that source/session": it is not loaded, its archive stays, the others load, exit 4', async () => {
    const dir = tempDir('etl-corrupt-page-');
    const userDir = join(dir, 'User');
    const dbPath = join(userDir, 'globalStorage', 'state.vscdb');
    const db = new StateDbBuilder(dbPath);
    for (const id of IDS)
      writeComposer(db, {
        id,
        name: 'corrupt page',
        createdAt: 1_700_000_000_000,
        bubbles: [
          { id: `${id}-1`, role: 'user', text: 'question' },
          { id: `${id}-2`, role: 'assistant', text: id === DAMAGED ? MARKER.repeat(2_000) : 'answer' },
        ],
      });
    db.close();
    const warehouse = join(dir, 'w.duckdb');
    const run = (target: string, ...extra: string[]) =>
      runCli(['run', '--json', '--cursor-user-dir', userDir, '--target', `duckdb:${target}`, ...extra]);
    expect(run(warehouse).code).toBe(0);
    const archived = await queryRows(warehouse, 'select session_id, message_count from sessions order by 1');
    breakOverflowChain(dbPath, MARKER);

    for (const extra of [[], ['--since-last']]) {
      const damaged = run(warehouse, ...extra);
      expect(damaged.code).toBe(4);
      expect(JSON.parse(damaged.stderr).error).toMatchObject({
        code: 'SOURCE_UNREADABLE',
        details: { reason: 'SQLITE_CORRUPT', outcome: 'fatal' },
      });
      expect(await queryRows(warehouse, 'select session_id, message_count from sessions order by 1')).toEqual(
        archived,
      );
    }
    const fresh = join(dir, 'fresh.duckdb');
    expect(run(fresh).code).toBe(4);
    expect(await queryRows(fresh, 'select session_id from sessions')).toEqual([{ session_id: IDS[1] }]);
    const errors = await queryRows(
      fresh,
      `select code, session_id from diagnostics where severity = 'error'`,
    );
    expect(errors).toEqual([{ code: 'SOURCE_UNREADABLE', session_id: DAMAGED }]);
  });
});
