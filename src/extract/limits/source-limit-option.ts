/**
 * The CLI form of read-limit overrides: repeatable `--source-limit field=value` with the grammar
 * `^[1-9][0-9]*(KiB|MiB|GiB)?$`; suffixes (powers of 1024) only on byte fields.
 */
import { isByteField, isLimitField, LIMIT_FIELDS, limitConfigurationError } from './read-limits.js';

const VALUE_GRAMMAR = /^([1-9][0-9]*)(KiB|MiB|GiB)?$/;
const MULTIPLIER = { KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 } as const;

export function parseSourceLimitOptions(options: readonly string[]): Record<string, number> {
  const overrides: Record<string, number> = {};
  for (const option of options) {
    const eq = option.indexOf('=');
    const field = eq < 0 ? option : option.slice(0, eq);
    const raw = eq < 0 ? '' : option.slice(eq + 1);
    const shownRaw = raw.length <= 64 ? raw : `${raw.slice(0, 64)}…`;
    if (eq < 0 || !isLimitField(field)) {
      throw limitConfigurationError({
        field,
        value: shownRaw,
        receivedType: 'string',
        constraint: eq < 0 ? 'expected field=value' : 'unknown field',
        remedy: `Use --source-limit <field>=<value> with one of: ${LIMIT_FIELDS.join(', ')}.`,
      });
    }
    if (Object.hasOwn(overrides, field)) {
      throw limitConfigurationError({
        field,
        value: shownRaw,
        receivedType: 'string',
        constraint: 'field given more than once',
        remedy: `Give --source-limit ${field}=… once.`,
      });
    }
    const match = VALUE_GRAMMAR.exec(raw);
    const suffix = match?.[2] as keyof typeof MULTIPLIER | undefined;
    if (!match || (suffix !== undefined && !isByteField(field))) {
      throw limitConfigurationError({
        field,
        value: shownRaw,
        receivedType: 'string',
        constraint: match
          ? 'size suffixes are only valid on byte fields'
          : 'value must match ^[1-9][0-9]*(KiB|MiB|GiB)?$',
        remedy: isByteField(field)
          ? `Give ${field} as decimal bytes or with an exact KiB, MiB or GiB suffix, e.g. ${field}=128MiB.`
          : `Give ${field} as a decimal positive whole number without a suffix.`,
      });
    }
    const value = Number(match[1]) * (suffix ? MULTIPLIER[suffix] : 1);
    if (!Number.isSafeInteger(value)) {
      throw limitConfigurationError({
        field,
        value: shownRaw,
        receivedType: 'string',
        constraint: 'must be a positive safe integer',
        remedy: `Give ${field} at most ${Number.MAX_SAFE_INTEGER}.`,
      });
    }
    overrides[field] = value;
  }
  return overrides;
}
