/** Shared numeric flag parsing of the bench scripts (`--name value`, positive integers). */
import { parseArgs } from 'node:util';

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
