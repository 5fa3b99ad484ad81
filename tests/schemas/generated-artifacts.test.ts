import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED_FILES } from '../../schemas/render.js';
import { rowSchemaOf } from '../../schemas/row-schema.js';
import { sessionsTable } from '../../schemas/tables.js';

describe('one schema source', () => {
  it.each(GENERATED_FILES.map(([path, render]) => [path, render] as const))(
    '%s is up to date with its source (run `npm run schemas:generate`)',
    (path, render) => {
      expect(readFileSync(path, 'utf8')).toBe(render());
    },
  );

  it('the zod row schema rejects values outside the documented enumerations', () => {
    const result = rowSchemaOf(sessionsTable).shape.fidelity!.safeParse('mostly');
    expect(result.success).toBe(false);
  });
});
