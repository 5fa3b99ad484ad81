/**
 * The redaction ruleset: its version (stored with a redacted warehouse, so a newer ruleset
 * re-redacts it), the libraries it is built on and the rules written here. A change of the
 * library versions or of any own rule's behaviour must bump RULESET_VERSION.
 */
export const RULESET_VERSION = 1;

/** The maintained ruleset: secretlint's recommended preset (its own rules, see library-rules.ts). */
export const LIBRARY_VERSIONS = {
  '@secretlint/core': '13.1.0',
  '@secretlint/secretlint-rule-preset-recommend': '13.1.0',
} as const;

/** Rules of this project, for what the library does not cover (docs/redaction.md). */
export const OWN_RULES = [
  'private-key',
  'jwt',
  'auth-header',
  'secret-assignment',
  'email',
  'home-path',
] as const;
export type OwnRule = (typeof OWN_RULES)[number];

/** What replaces a secret: fixed text naming the rule, never a byte of the secret. */
export function marker(rule: string): string {
  return `[REDACTED:${rule}]`;
}

export const MARKER_START = '[REDACTED:';

/** A span [start, end) of a text that a rule found to be a secret. */
export interface Span {
  start: number;
  end: number;
  rule: string;
}
