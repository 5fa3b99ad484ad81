/** Codes of redaction: keys, policies, rewritten archives and suspected secrets. */
import { type CatalogueEntry, none } from './catalogue-entry.js';

export const REDACTION_CODES = {
  REDACTION_APPLIED: {
    severity: ['info'],
    exit: null,
    meaning: '--redact replaced secret-looking values in the loaded sessions.',
    remedy: 'None; the counts say how many values of each kind were replaced.',
    details: (z) =>
      z.object({
        redactions: z.number(),
        sessionsAffected: z.number(),
        byRule: z.record(z.string(), z.number()),
        ruleset: z.number(),
      }),
  },
  REDACTION_ARCHIVE_REWRITTEN: {
    severity: ['info'],
    exit: null,
    meaning: "Archived sessions were re-redacted under this build's ruleset before the run loaded sources.",
    remedy: 'None; the counts say how many values of each rule were replaced.',
    details: (z) =>
      z.object({
        sessions: z.number(),
        redactions: z.number(),
        byRule: z.record(z.string(), z.number()),
        ruleset: z.number(),
      }),
  },
  REDACTION_KEY_INVALID: {
    severity: [],
    exit: 'usage',
    meaning: 'The redaction identity key file does not hold a key cursor-etl wrote.',
    remedy: 'Point redactionKeyFile at the key file written for this warehouse (64 lower-case hex digits).',
    details: (z) => z.object({ remedy: z.string() }),
  },
  REDACTION_KEY_MISMATCH: {
    severity: [],
    exit: 'usage',
    meaning: "The identity key differs from the one this warehouse's sealed IDs were made with.",
    remedy: 'Point redactionKeyFile in the config file at the key file used for this warehouse.',
    details: (z) => z.object({ remedy: z.string() }),
  },
  REDACTION_KEY_UNREADABLE: {
    severity: [],
    exit: 'io',
    meaning: 'The redaction identity key file exists but could not be read.',
    remedy: 'Check the permissions of the key file (owner-readable, mode 0600).',
    details: none,
  },
  REDACTION_KEY_UNWRITABLE: {
    severity: [],
    exit: 'io',
    meaning: 'The redaction identity key file could not be created.',
    remedy: 'Point redactionKeyFile in the config file at a writable location.',
    details: (z) => z.object({ remedy: z.string() }),
  },
  REDACTION_OPTIONS_CONFLICT: {
    severity: [],
    exit: 'usage',
    meaning: 'Home-path redaction was asked for with redaction turned off.',
    remedy: 'Drop --no-redact, or drop --redact-home-paths.',
    details: none,
  },
  REDACTION_POLICY_DOWNGRADE: {
    severity: [],
    exit: 'usage',
    meaning: 'A run would load plaintext into a redacted warehouse.',
    remedy: 'Run without --no-redact (the stored policy applies), or add --allow-unredacted.',
    details: (z) => z.object({ storedHomePaths: z.boolean(), remedy: z.string() }),
  },
  REDACTION_POLICY_INVALID: {
    severity: [],
    exit: 'integrity',
    meaning: 'The redaction policy stored in the warehouse is unreadable.',
    remedy: 'Restore the warehouse from a backup; its redaction state cannot be trusted.',
    details: (z) => z.object({ remedy: z.string() }),
  },
  REDACTION_RULESET_NEWER: {
    severity: [],
    exit: 'integrity',
    meaning: 'The warehouse was redacted by a newer ruleset than this build has.',
    remedy: 'Upgrade cursor-etl.',
    details: (z) =>
      z.object({ warehouseRuleset: z.number(), supportedRuleset: z.number(), remedy: z.string() }),
  },
  SECRETS_SUSPECTED: {
    severity: [],
    exit: 'integrity',
    meaning:
      'etl verify --secrets found suspected secrets in a redacted warehouse (locations, never values).',
    remedy: 'Run etl redact --target … with this build to re-redact the archive.',
    details: (z) =>
      z.object({
        redacted: z.boolean(),
        sessionsScanned: z.number(),
        suspects: z.array(
          z.object({
            table: z.string(),
            column: z.string(),
            sessionId: z.string(),
            byRule: z.record(z.string(), z.number()),
          }),
        ),
        remedy: z.string(),
      }),
  },
} as const satisfies Record<string, CatalogueEntry>;
