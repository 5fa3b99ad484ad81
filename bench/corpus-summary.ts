/** The corpus lines of the benchmark report: sizes (bytes, rows) per source representation. */
import type { BenchCorpus } from '../fixtures/bench/bench-corpus.js';

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KB`;

export function corpusSummary(label: string, corpus: BenchCorpus): string[] {
  const { kinds, composer, store } = corpus.stats;
  return [
    `- ${label}: ${corpus.stats.sessions} sessions (${kinds.composer} Composer only, ${kinds['merged-db']} merged with a store.db, ` +
      `${kinds['merged-transcript']} merged with a transcript, ${kinds['store-db']} Store DB only, ` +
      `${kinds['store-transcript']} transcript only), ${corpus.stats.messages} messages; ` +
      `source ${mb(corpus.stats.sourceBytes)}, payload ${mb(corpus.stats.payloadBytes)}`,
    `  - Composer: ${composer.sessions} sessions, ${composer.bubbles} bubble rows, ${composer.workspaces} workspaces; ` +
      `global DB ${mb(composer.globalDbBytes)} (payload ${mb(composer.payloadBytes)}), workspace DBs ${kb(composer.workspaceDbBytes)}`,
    `  - Store DBs: ${store.dbs} store.db files, ${store.blobs} blob rows (${mb(store.blobBytes)}), files ${mb(store.dbBytes)}; ` +
      `meta.json ${kb(store.metaJsonBytes)}`,
    `  - Transcripts: ${store.transcripts} files, ${store.transcriptLines} lines, ${mb(store.transcriptBytes)}`,
  ];
}
