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

/**
 * Redacts every string inside a JSON value; a string under a secret-named key is redacted whole.
 * Copies with an explicit work list, not recursion, so arbitrarily deep source JSON cannot
 * overflow the stack; copied objects have no prototype, so a `__proto__` key stays a plain key.
 */
export function redactJsonValue(value: unknown, counts: RedactionCounts): unknown {
  const pending: [source: object, target: Record<string, unknown> | unknown[]][] = [];
  const copy = (item: unknown): unknown => {
    if (typeof item === 'string') return redactText(item, counts);
    if (typeof item !== 'object' || item === null) return item;
    const target: Record<string, unknown> | unknown[] = Array.isArray(item) ? [] : Object.create(null);
    pending.push([item, target]);
    return target;
  };
  const root = copy(value);
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [source, target] = next;
    if (Array.isArray(source)) {
      for (const item of source) (target as unknown[]).push(copy(item));
      continue;
    }
    const record = target as Record<string, unknown>;
    for (const [key, item] of Object.entries(source)) {
      const secret = SECRET_KEY.test(key) && typeof item === 'string' && item.length > 0;
      if (secret && !item.startsWith('[REDACTED')) {
        counts['secret-assignment']++;
        record[key] = '[REDACTED:secret]';
      } else record[key] = copy(item);
    }
  }
  return root;
}
