/** Stamps a session's rows with the origin that loads them; the digest leaves origin out. */
import type { NormalizedSession } from './normalized-session.js';

export function withOrigin(session: NormalizedSession, origin: string | null): NormalizedSession {
  if (origin === null || session.session.origin === origin) return session;
  return {
    ...session,
    session: { ...session.session, origin },
    sourceInstances: session.sourceInstances.map((instance) => ({ ...instance, origin })),
  };
}
