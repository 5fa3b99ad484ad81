/** `etl sources`: what a run would read, with counts per kind, without reading any payload. */

import { createReadContext } from '../../extract/read-context.js';
import { createAdapters } from '../../extract/registry.js';
import { PrivateTempDir } from '../../shared/temp/private-temp-dir.js';
import type { Output } from '../output.js';
import { type RunFlags, resolveRunFlags } from '../run-options.js';

export async function sourcesCommand(flags: RunFlags, output: Output): Promise<number> {
  const { options } = await resolveRunFlags(flags);
  const temp = PrivateTempDir.create();
  const ctx = createReadContext({ ...options, temp });
  const kinds = new Map<string, { sources: number; sessionOccurrences: number; bytes: number }>();
  const adapters = createAdapters();
  try {
    for (const adapter of adapters) {
      for (const source of await adapter.discover(options.roots, ctx)) {
        const entry = kinds.get(source.kind) ?? { sources: 0, sessionOccurrences: 0, bytes: 0 };
        entry.sources++;
        entry.bytes += source.fingerprint.size;
        for await (const _ of adapter.catalog(source, ctx)) entry.sessionOccurrences++;
        kinds.set(source.kind, entry);
      }
    }
  } finally {
    for (const adapter of adapters) adapter.close();
    temp.dispose();
  }
  const rows = [...kinds.entries()].map(([kind, v]) => ({ kind, ...v }));
  const human =
    rows.length === 0
      ? 'no sources found'
      : rows
          .map(
            (r) =>
              `${r.kind}: ${r.sources} source(s), ${r.sessionOccurrences} session occurrence(s), ${r.bytes} bytes`,
          )
          .join('\n');
  output.success(
    { roots: { carrier: options.roots.carrier }, kinds: rows, payloadBytesRead: ctx.counters.payloadBytes },
    human,
  );
  return 0;
}
