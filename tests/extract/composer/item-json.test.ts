import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, StateDbBuilder } from '../../../fixtures/composer/state-db-builder.js';
import { admitJsonItem, jsonItemMeta } from '../../../src/extract/composer/item-json.js';
import { SourceLimitExceeded } from '../../../src/extract/limits/limit-exceeded.js';
import { DEFAULT_READ_LIMITS } from '../../../src/extract/limits/read-limits.js';
import { HydrationBudget } from '../../../src/extract/sqlite/keyset-pager.js';
import { tempDir } from '../../helpers/run-cli.js';

describe('ItemTable JSON metadata', () => {
  const limits = { ...DEFAULT_READ_LIMITS, sqliteValueBytes: 4096 };

  it('"SQLite value lengths are checked before materialization": past the bound, no JSON validity is computed', () => {
    const builder = new StateDbBuilder(join(tempDir(), 'state.vscdb'));
    builder.item('small', json({ a: 1 }));
    builder.item('large', json({ a: 'x'.repeat(5_000) }));
    try {
      const small = jsonItemMeta(builder.db, 'ItemTable', 'small', limits);
      const large = jsonItemMeta(builder.db, 'ItemTable', 'large', limits);
      expect(small).toMatchObject({ ok: 1 });
      expect(large).toMatchObject({ ok: null, len: expect.any(Number) });
      expect(large!.len).toBeGreaterThan(4096);
      expect(admitJsonItem(small, limits, new HydrationBudget(limits))).toBe(small!.rid);
      expect(() => admitJsonItem(large, limits, new HydrationBudget(limits))).toThrow(SourceLimitExceeded);
    } finally {
      builder.close();
    }
  });
});
