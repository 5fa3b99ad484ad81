/**
 * Turns a session's hydrated contributions into its rows: on the main thread for small runs (no
 * worker start for a no-op or a one-session sync), on a resolve pool from a threshold on. Outcomes
 * are awaited in submission order, so batches, diagnostics and memberships match a sequential run.
 */
import type { Contribution } from '../../extract/source-adapter.js';
import type { ResolveOptions } from '../resolve-session.js';
import { SessionUnavailable } from '../session-unavailable.js';
import type { Resolved } from './resolve-for-load.js';
import type { ResolveSettings } from './resolve-job.js';

export type ResolveOutcome = Resolved | { unavailable: SessionUnavailable };

type Scope = NonNullable<ResolveOptions['scope']>;

export interface SessionResolver {
  /** Sessions that may be submitted before the oldest outcome must be taken (0: sequential). */
  readonly window: number;
  resolve(contributions: readonly Contribution[], scope: Scope): Promise<ResolveOutcome>;
  close(): Promise<void>;
}

// A worker answers its first session ~110-160 ms after its start; a 100-message session costs the
// main thread ~4 ms to resolve, so the pool pays from ~30-40 sessions: 64 keeps a margin.
const DEFAULT_MIN_SESSIONS = 64;
// Sessions hydrated ahead of the oldest unresolved one, per worker: keeps the worker busy, memory flat.
const WINDOW_PER_WORKER = 4;

/** `CURSOR_ETL_RESOLVE_WORKERS_FROM=<n>` lowers the threshold (tests spawn workers on small corpora). */
function minSessions(): number {
  const raw = process.env.CURSOR_ETL_RESOLVE_WORKERS_FROM;
  return raw !== undefined && /^[1-9]\d*$/.test(raw) ? Number(raw) : DEFAULT_MIN_SESSIONS;
}

function unavailableOr<T>(error: unknown): { unavailable: SessionUnavailable } | T {
  if (error instanceof SessionUnavailable) return { unavailable: error };
  throw error;
}

export async function createSessionResolver(
  sessions: number,
  settings: ResolveSettings,
): Promise<SessionResolver> {
  if (sessions >= minSessions()) {
    const { ResolvePool, poolSize } = await import('./resolve-pool.js');
    const size = poolSize();
    const pool = new ResolvePool(size, settings);
    return {
      window: size * WINDOW_PER_WORKER,
      resolve: (contributions, scope) => pool.resolve(contributions, scope).catch(unavailableOr<never>),
      close: () => pool.close(),
    };
  }
  // The transform stack loads only when a session is to be resolved: a no-op resolves none.
  const { resolveForLoad } = await import('./resolve-for-load.js');
  return {
    window: 0,
    resolve: async (contributions, scope) => {
      try {
        return await resolveForLoad(contributions, scope, settings);
      } catch (error) {
        return unavailableOr(error);
      }
    },
    close: async () => undefined,
  };
}
