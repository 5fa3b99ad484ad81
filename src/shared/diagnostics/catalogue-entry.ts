/** The shape of one catalogue entry, and the details pieces several areas' codes share. */
import type { z as Zod } from 'zod';
import type { DiagnosticSeverity } from '../diagnostic.js';
import type { EXIT } from '../errors.js';

export type ZodApi = typeof Zod;

export interface CatalogueEntry {
  /** The severities a diagnostic of this code is recorded with; empty when it is only thrown. */
  severity: readonly DiagnosticSeverity[];
  /** The exit category when it ends a run; null when it is only ever a diagnostic. */
  exit: keyof typeof EXIT | null;
  meaning: string;
  remedy: string;
  details: (z: ZodApi) => Zod.ZodObject;
}

export const none = (z: ZodApi) => z.object({});

/** Partial or fatal: whether the rest of the session (or run) survived the problem. */
export const outcome = (z: ZodApi) => z.enum(['partial', 'fatal']).optional();

/** A capture source refused as a whole keeps its error's details plus these. */
export const refusal = (z: ZodApi) => ({
  outcome: outcome(z),
  failClosed: z.literal(true).optional(),
  /** How many capture sources were refused, when none could be loaded. */
  refusedSources: z.number().optional(),
});
