/** The better-sqlite3 driver, required rather than imported (see shared/require-commonjs). */
import type BetterSqlite3 from 'better-sqlite3';
import { requireCommonJs } from '../../shared/require-commonjs.js';

export const Database = requireCommonJs('better-sqlite3') as typeof BetterSqlite3;
