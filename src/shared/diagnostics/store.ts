/** Codes of Store transcripts, store.db files and SDK agent stores. */
import { type CatalogueEntry, outcome } from './catalogue-entry.js';

export const STORE_CODES = {
  SDK_AGENT_STORES_UNREAD: {
    severity: ['info'],
    exit: null,
    meaning:
      'Per-agent SDK store.db files exist beside an index.db; their schema is unknown, so none is read.',
    remedy: 'None; each agent is loaded from index.db and its transcript.',
    details: (z) => z.object({ count: z.number() }),
  },
  STORE_DB_PARTIAL: {
    severity: ['warning'],
    exit: null,
    meaning: 'A store.db conversation could not be read completely; the view is partial.',
    remedy: 'None; the counts name the problems found in the blob tree.',
    details: (z) => z.object({ problems: z.record(z.string(), z.number()) }),
  },
  STORE_META_INVALID: {
    severity: ['warning'],
    exit: null,
    meaning: 'A store.db meta row is not hex-encoded JSON naming a valid root blob.',
    remedy: 'None; the session keeps its other representations.',
    details: (z) => z.object({ reason: z.string() }),
  },
  STORE_META_JSON_INVALID: {
    severity: ['warning'],
    exit: null,
    meaning: "A Store session's meta.json is not supported metadata; its workspace and times are unknown.",
    remedy: 'None; the session is loaded without them.',
    details: (z) => z.object({ reason: z.string(), outcome: outcome(z) }),
  },
  STORE_TRANSCRIPT_PARTIAL: {
    severity: ['warning'],
    exit: null,
    meaning: 'An agent transcript has lines that are not messages; the view is partial.',
    remedy: 'None; the counts say which kinds of lines were skipped.',
    details: (z) =>
      z.object({
        state: z.string(),
        errorLines: z.number(),
        unsupportedLines: z.number(),
        malformedLines: z.number(),
        lifecycleFrames: z.number(),
      }),
  },
} as const satisfies Record<string, CatalogueEntry>;
