/**
 * The origin a run writes as: a human-chosen machine/profile name (`--origin`, config `origin`), or
 * one derived from the user and host names. Provenance only: never part of an identity or digest.
 */
import { hostname } from 'node:os';
import { UsageError } from './errors.js';

const ORIGIN_PATTERN = /^[A-Za-z0-9][A-Za-z0-9@._-]{0,63}$/;

/** The name as given, when it passes the grammar; otherwise a usage error that never echoes it. */
export function parseOrigin(value: string): string {
  if (ORIGIN_PATTERN.test(value)) return value;
  throw new UsageError(
    'ORIGIN_INVALID',
    'The origin name is not 1-64 letters, digits, ".", "-", "_" or "@"',
    {
      length: value.length,
    },
  );
}

export interface OriginEnvironment {
  user: string | null;
  host: string | null;
}

/** The user comes from the environment: a passwd lookup can reach a name service over a socket. */
export function currentOriginEnvironment(): OriginEnvironment {
  const user = process.env.USER ?? process.env.LOGNAME ?? process.env.USERNAME ?? null;
  return { user, host: hostname() };
}

/** Lower case, runs of other characters as one `-`, no leading or trailing `-`. */
function label(value: string | null, limit: number): string {
  return (value ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9._]+/g, '-')
    .replace(/^[-._]+|[-._]+$/g, '')
    .slice(0, limit)
    .replace(/[-._]+$/g, '');
}

/** `user@host`: the host's first label only, each part sanitized; `local` when neither is known. */
export function defaultOrigin(environment: OriginEnvironment = currentOriginEnvironment()): string {
  const user = label(environment.user, 31);
  const host = label((environment.host ?? '').split('.')[0] ?? '', 31);
  if (user === '' && host === '') return 'local';
  if (user === '') return host;
  if (host === '') return user;
  return `${user}@${host}`;
}
