/**
 * The redaction rules: PEM private keys, bearer tokens, key/token/password/secret assignments and
 * e-mail addresses. Replacements are fixed markers (JSON-safe, no source bytes) and every hit is
 * counted by kind; the counts are all that is ever reported.
 */
export const REDACTION_KINDS = ['private-key', 'bearer', 'secret-assignment', 'email'] as const;
export type RedactionKind = (typeof REDACTION_KINDS)[number];
export type RedactionCounts = Record<RedactionKind, number>;

export function emptyCounts(): RedactionCounts {
  return { 'private-key': 0, bearer: 0, 'secret-assignment': 0, email: 0 };
}

const SECRET_NAME = '[A-Za-z0-9_.-]*(?:key|token|password|passwd|pwd|secret)';

/** An object key naming a secret: it ends with one of the secret words (`apiKey`, `db_password`). */
export const SECRET_KEY = new RegExp(`^${SECRET_NAME}$`, 'i');

const RULES: ReadonlyArray<{ kind: RedactionKind; pattern: RegExp; replace: string }> = [
  {
    kind: 'private-key',
    pattern: /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----[\s\S]*?-----END \1PRIVATE KEY-----/g,
    replace: '[REDACTED:private-key]',
  },
  {
    kind: 'bearer',
    pattern: /\bBearer\s+(?!\[REDACTED)[A-Za-z0-9._~+/=-]{8,}/g,
    replace: 'Bearer [REDACTED:bearer]',
  },
  {
    kind: 'secret-assignment',
    pattern: new RegExp(`\\b(${SECRET_NAME})(["']?\\s*[:=]\\s*)(["']?)(?!\\[REDACTED)[^\\s"'<>,;]+`, 'gi'),
    replace: '$1$2$3[REDACTED:secret]',
  },
  {
    kind: 'email',
    pattern: /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g,
    replace: '[REDACTED:email]',
  },
];

export function redactText(text: string, counts: RedactionCounts): string {
  let out = text;
  for (const rule of RULES) {
    out = out.replace(rule.pattern, (...args: unknown[]) => {
      counts[rule.kind]++;
      const groups = args.slice(1, -2) as (string | undefined)[];
      return rule.replace.replace(/\$(\d)/g, (_m, n: string) => groups[Number(n) - 1] ?? '');
    });
  }
  return out;
}

/** Redacts every string inside a JSON value; a string under a secret-named key is redacted whole. */
export function redactJsonValue(value: unknown, counts: RedactionCounts): unknown {
  if (typeof value === 'string') return redactText(value, counts);
  if (Array.isArray(value)) return value.map((item) => redactJsonValue(item, counts));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      if (
        SECRET_KEY.test(key) &&
        typeof item === 'string' &&
        item.length > 0 &&
        !item.startsWith('[REDACTED')
      ) {
        counts['secret-assignment']++;
        return [key, '[REDACTED:secret]'];
      }
      return [key, redactJsonValue(item, counts)];
    }),
  );
}
