/**
 * Loads a CommonJS dependency with `require`. An ESM `import` of a CommonJS package makes Node lex
 * every file of it for export names before evaluating it (it cost ~0.2 s of CPU per run for
 * `@duckdb/node-api`, which the CLI bundle now carries instead), paid by every command.
 */
import { createRequire } from 'node:module';

export const requireCommonJs = createRequire(import.meta.url);
