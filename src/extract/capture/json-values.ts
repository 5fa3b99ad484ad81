/** Narrowing helpers for the verbatim JSON of captures: a plain object, a nonempty string. */
import type { JsonObject } from './capture-contribution.js';

export function obj(value: unknown): JsonObject | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : null;
}

export function str(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}
