/** Shared numeric flag parsing of the bench scripts (`--name value`, positive integers). */
import { parseArgs } from 'node:util';

/** About a quarter of the sessions have a Cursor Store form, as the issue asks. */
export const DEFAULT_STORE_SHARE = 0.25;

export function parseIntFlags<K extends string>(
  argv: readonly string[],
  defaults: Record<K, number>,
  strings: readonly string[] = [],
): { ints: Record<K, number>; strings: Record<string, string | undefined> } {
  const options: Record<string, { type: 'string' }> = {};
  for (const name of [...Object.keys(defaults), ...strings]) options[name] = { type: 'string' };
  const { values } = parseArgs({ args: [...argv], options, strict: true });
  const ints = { ...defaults };
  for (const name of Object.keys(defaults) as K[]) {
    const raw = values[name];
    if (raw === undefined) continue;
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value < 0)
      throw new Error(`--${name} must be a non-negative integer`);
    ints[name] = value;
  }
  const rest: Record<string, string | undefined> = {};
  for (const name of strings) rest[name] = values[name] as string | undefined;
  return { ints, strings: rest };
}

/** A share flag such as `--store-share 0.25`: a number in [0, 1], `fallback` when absent. */
export function parseShare(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1)
    throw new Error(`--${name} must be a number from 0 to 1`);
  return value;
}
