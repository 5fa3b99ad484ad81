/**
 * The better-sqlite3 driver, required rather than imported (see shared/require-commonjs), and only
 * when first used: a run whose SQLite sources are all unchanged never opens one.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { requireCommonJs } from '../../shared/require-commonjs.js';

type Driver = typeof BetterSqlite3;

let driver: Driver | null = null;

function loaded(): Driver {
  driver ??= requireCommonJs('better-sqlite3') as Driver;
  return driver;
}

/** Stands for the driver's `Database` class: `new`, `instanceof` and its statics load it first. */
export const Database = new Proxy(function lazyDatabase() {} as unknown as Driver, {
  construct: (_target, args: unknown[]) => Reflect.construct(loaded(), args),
  get: (_target, key) => Reflect.get(loaded(), key),
}) as Driver;
