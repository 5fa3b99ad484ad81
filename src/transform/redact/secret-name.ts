/**
 * Whether a name (assignment target, JSON key) names a secret: split into words (`_`, `-`, `.`,
 * camelCase, digits), a secret word counts anywhere, fused too (`PGPASSWORD`), except inside
 * ordinary words (`monkey`) and in names describing a secret (`token_count`, `secretName`).
 */

/** Words that name a secret wherever they stand, alone or fused into a longer word. */
const STRONG = [
  'password',
  'passwd',
  'passphrase',
  'passcode',
  'pswd',
  'pwd',
  'secret',
  'credential',
  'creds',
];

/** Words that name a secret as a word of their own or as the end of a fused one (`dbpass`, `authtoken`). */
const WEAK = ['token', 'pass', 'pin', 'auth'];

/** Ordinary words ending or starting like a secret word. */
const ORDINARY = new Set([
  'monkey',
  'turkey',
  'hockey',
  'jockey',
  'donkey',
  'whiskey',
  'compass',
  'encompass',
  'bypass',
  'trespass',
  'overpass',
  'underpass',
  'surpass',
  'spin',
  'hotkey',
  'passkey',
]);

/** A word in the name saying it holds something about a secret, not the secret itself. */
const DESCRIBES = new Set([
  'count',
  'counts',
  'limit',
  'limits',
  'max',
  'min',
  'total',
  'used',
  'usage',
  'length',
  'len',
  'size',
  'type',
  'types',
  'kind',
  'name',
  'names',
  'id',
  'ids',
  'index',
  'idx',
  'file',
  'filename',
  'path',
  'dir',
  'url',
  'uri',
  'endpoint',
  'hint',
  'label',
  'field',
  'prompt',
  'placeholder',
  'policy',
  'expiry',
  'expires',
  'expiration',
  'ttl',
  'rotation',
  'format',
  'version',
  'required',
  'enabled',
  'disabled',
  'mode',
  'method',
  'scheme',
  'algorithm',
  'alg',
  'budget',
  'input',
  'output',
  'pattern',
  'regex',
  'error',
  'message',
  'description',
  'title',
  'status',
  'event',
  'callback',
  'handler',
  'manager',
  'service',
  'provider',
  'strength',
  'visible',
  'toggle',
  'rate',
  'next',
  'page',
  'cancellation',
  'continuation',
  'tokens',
]);

/** With `key`, a word that makes it a credential (`api_key`, `signingKey`); alone `key` is too common. */
const KEY_KINDS = new Set([
  'api',
  'secret',
  'private',
  'priv',
  'access',
  'client',
  'master',
  'signing',
  'encryption',
  'decryption',
  'license',
  'auth',
  'deploy',
  'ssh',
  'gpg',
  'pgp',
  'app',
  'account',
  'admin',
  'root',
  'webhook',
  'session',
  'shared',
  'hmac',
  'jwt',
  'subscription',
  'consumer',
  'merchant',
  'integration',
  'bot',
  'x',
]);

/** Splits a name into lower-case words: `SECRET_KEY_BASE` → secret, key, base; `apiKey2` → api, key. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((word) => word.length > 0);
}

function isKeyWord(word: string, words: readonly string[]): boolean {
  if (word === 'key' || word === 'keys') return words.some((other) => KEY_KINDS.has(other));
  const fused = word.endsWith('keys') ? word.slice(0, -4) : word.endsWith('key') ? word.slice(0, -3) : null;
  return fused !== null && fused.length > 0 && KEY_KINDS.has(fused);
}

function isWeakWord(word: string): boolean {
  if (ORDINARY.has(word)) return false;
  return WEAK.some((weak) => word === weak || (weak !== 'pin' && word.endsWith(weak)));
}

/** The secret word a name holds, or null when it names no secret. */
export function secretWordOf(name: string): string | null {
  const words = nameWords(name);
  if (words.length === 0 || words.length > 8) return null;
  if (words.some((word) => DESCRIBES.has(word))) return null;
  for (const word of words) {
    const strong = STRONG.find((s) => word.includes(s));
    if (strong !== undefined) return strong;
    if (isKeyWord(word, words)) return 'key';
    if (isWeakWord(word)) return word;
  }
  return null;
}

export function isSecretName(name: string): boolean {
  return secretWordOf(name) !== null;
}

/** Names a value that must be long enough to be one (a PIN of 4 digits, not an Arduino `ledPin = 13`). */
export function minimumValueLength(name: string): number {
  return nameWords(name).includes('pin') ? 4 : 3;
}
