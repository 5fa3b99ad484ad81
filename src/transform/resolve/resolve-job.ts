/** The messages between the run and its resolve workers: plain data, so structured clone keeps them. */
import type { Contribution, SessionOccurrence } from '../../extract/source-adapter.js';
import type { ResolveOptions } from '../resolve-session.js';
import type { TransportedError } from './resolve-error-transport.js';
import type { Resolved } from './resolve-for-load.js';

/** How a redacting run redacts: the home-path policy and the identity key (hex), or null when off. */
export interface RedactionJob {
  homePaths: boolean;
  sealKey: string;
}

export interface ResolveSettings {
  preferredSource: ResolveOptions['preferredSource'];
  redaction: RedactionJob | null;
}

export interface ResolveRequest {
  id: number;
  contributions: Contribution[];
  scope: NonNullable<ResolveOptions['scope']>;
}

export type ResolveReply =
  | ({ id: number; ok: true } & Resolved)
  | { id: number; ok: false; error: TransportedError };

/** An occurrence without its adapter-private handle (which may hold a database or a function). */
export function portableOccurrence(occurrence: SessionOccurrence): SessionOccurrence {
  return { ...occurrence, handle: null };
}
