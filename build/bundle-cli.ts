/**
 * Bundles the compiled CLI (`dist/src/cli/main.js`) in place into one ESM entry plus lazily loaded
 * chunks: Node then resolves and links a few dozen files instead of ~190, the largest part of a
 * no-op `--since-last`. Dependencies loaded with `require` (DuckDB, SQLite, commander, yauzl) stay
 * outside, so preloads that patch them (the crash harness) still see the instances the CLI uses.
 */
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const cliDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'cli');
const chunkDir = join(cliDir, 'chunks');

// Chunk names carry content hashes: stale ones from an earlier build are removed first.
rmSync(chunkDir, { recursive: true, force: true });
await build({
  // The resolve worker is an entry of its own, beside the chunk of the pool that spawns it.
  entryPoints: {
    main: join(cliDir, 'main.js'),
    'chunks/resolve-worker': join(cliDir, '..', 'sync', 'resolve-worker.js'),
  },
  outdir: cliDir,
  allowOverwrite: true,
  bundle: true,
  // apache-arrow declares itself side-effect free, but its Node entry registers the stream adapters
  // `toNodeStream` needs: bundled, they are tree-shaken away. It loads only with the export chunk.
  external: ['apache-arrow'],
  // Dynamic imports (the other commands, the transform stack, the Parquet target) stay lazy.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
});
