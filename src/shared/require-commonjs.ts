/**
 * Loads a CommonJS dependency with `require`. An ESM `import` of a CommonJS package makes Node lex
 * every file of it for export names before evaluating it: ~0.2 s of CPU per run for
 * `@duckdb/node-api` alone, paid by every command, a no-op `--since-last` included.
 */
import { createRequire } from 'node:module';

export const requireCommonJs = createRequire(import.meta.url);
