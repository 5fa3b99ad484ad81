import type { StoreSessionFacts } from '../../src/extract/store/store-contribution.js';

/** Facts of a transcript-only session with nothing known beside it (no meta, no store.db). */
export const TRANSCRIPT_ONLY_FACTS: StoreSessionFacts = {
  meta: null,
  dbExpectation: 'not-expected',
  parentSessionId: null,
  workspaceUncertain: false,
  inventoryComplete: true,
};
