/**
 * Bundles the compiled CLI (`dist/src/cli/main.js`) in place into one ESM entry plus lazily loaded
 * chunks: Node then resolves and links a few dozen files instead of ~190, the largest part of a
 * no-op `--since-last`. `@duckdb/node-api` is bundled too (its own entry, for preloads that patch
 * it); dependencies loaded with `require` (DuckDB's native bindings, SQLite, commander, yauzl) stay
 * outside, so preloads that patch them (the crash harness) still see the instances the CLI uses.
 */
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const cliDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'cli');
const chunkDir = join(cliDir, 'chunks');

// Chunk names carry content hashes: stale ones from an earlier build are removed first.
rmSync(chunkDir, { recursive: true, force: true });
await build({
  // Each worker is an entry of its own, beside the chunk of the module that spawns it.
  entryPoints: {
    main: join(cliDir, 'main.js'),
    'chunks/resolve-worker': join(cliDir, '..', 'transform', 'resolve', 'resolve-worker.js'),
    'chunks/content-digest-worker': join(cliDir, '..', 'extract', 'composer', 'content-digest-worker.js'),
    // The bundled `@duckdb/node-api` as a module of its own: a preload that patches its classes (the
    // crash harness) imports this entry and reaches the very classes the CLI uses.
    'chunks/duckdb-node-api': createRequire(import.meta.url).resolve('@duckdb/node-api'),
  },
  outdir: cliDir,
  allowOverwrite: true,
  bundle: true,
  // apache-arrow declares itself side-effect free, but its Node entry registers the stream adapters
  // `toNodeStream` needs: bundled, they are tree-shaken away. It loads only with the export chunk.
  // The native DuckDB bindings load their platform's `.node` file at run time.
  external: ['apache-arrow', '@duckdb/node-bindings'],
  // Bundled CommonJS (`@duckdb/node-api`) requires its externals (`@duckdb/node-bindings`, `os`)
  // through the `require` this gives every chunk.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  // Dynamic imports (the other commands, the transform stack, the Parquet target) stay lazy.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
});
