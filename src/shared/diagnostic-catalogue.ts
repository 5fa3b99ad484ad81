/**
 * The one catalogue of every diagnostic and error code: severities, exit category, the shape of its
 * safe `details`, meaning and remedy. Entries are kept by area in `diagnostics/`; a new code is one
 * entry there, then `npm run schemas:generate`. Only the doc generator builds details schemas.
 */
import type { z as Zod } from 'zod';
import type { CatalogueEntry } from './diagnostics/catalogue-entry.js';
import { CLI_CODES } from './diagnostics/cli.js';
import { COMPOSER_AGENTKV_CODES } from './diagnostics/composer-agentkv.js';
import { LIMIT_DECODING_CODES } from './diagnostics/limits-decoding.js';
import { WAREHOUSE_CODES } from './diagnostics/load-warehouse.js';
import { REDACTION_CODES } from './diagnostics/redaction.js';
import { SOURCE_CODES } from './diagnostics/sources.js';
import { STORE_CODES } from './diagnostics/store.js';
import { SYNC_MERGE_CODES } from './diagnostics/sync-merge.js';

export type { CatalogueEntry } from './diagnostics/catalogue-entry.js';

export const CATALOGUE = {
  ...SOURCE_CODES,
  ...COMPOSER_AGENTKV_CODES,
  ...STORE_CODES,
  ...LIMIT_DECODING_CODES,
  ...WAREHOUSE_CODES,
  ...SYNC_MERGE_CODES,
  ...REDACTION_CODES,
  ...CLI_CODES,
} as const satisfies Record<string, CatalogueEntry>;

export type Code = keyof typeof CATALOGUE;

/** The `details` a code carries, as written at the call site. */
export type DetailsOf<C extends Code> = C extends Code
  ? Zod.input<ReturnType<(typeof CATALOGUE)[C]['details']>>
  : never;
