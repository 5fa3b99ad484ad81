/** Writes the generated schema artifacts; `tests/schemas` fails when they drift from the definitions. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { GENERATED_FILES } from './render.js';

const root = process.cwd();
for (const [relative, render] of GENERATED_FILES) {
  const target = join(root, relative);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, render());
  console.log(`wrote ${relative}`);
}
