import { describe, expect, it } from 'vitest';
import { isSecretName } from '../../../src/transform/redact/secret-name.js';

describe('secret-named names', () => {
  it('a secret word anywhere in the name, fused or not', () => {
    for (const name of [
      'DB_PASS',
      'SECRET_KEY_BASE',
      'pin',
      'PGPASSWORD',
      'apiKey',
      'x-api-key',
      'authToken',
      'passphrase',
      'client_secret',
      'credentials',
      'oauth',
      'MYSQL_ROOT_PASSWORD',
      'pwd',
    ])
      expect(isSecretName(name), name).toBe(true);
  });

  it('not ordinary words containing one, not names describing a secret, not a bare key', () => {
    for (const name of [
      'author',
      'keyboard',
      'monkey',
      'compass',
      'bypass',
      'tokenizer',
      'token_count',
      'max_tokens',
      'input_tokens',
      'password_hint',
      'secretName',
      'key',
      'primaryKey',
      'sortKey',
      'keyCode',
      'public_key',
      'authority',
    ])
      expect(isSecretName(name), name).toBe(false);
  });
});
