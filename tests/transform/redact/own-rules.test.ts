import { describe, expect, it } from 'vitest';
import { TextBatch } from '../../../src/transform/redact/redact-session.js';

async function redact(texts: string[], homePaths = false): Promise<string[]> {
  const batch = new TextBatch();
  for (const text of texts) batch.text(text);
  return batch.redact({ homePaths }, {});
}

const PEM_BODY = [
  'MIIEowIBAAKCAQEAx1234567890abcdefghijklmnopqrstuvwxyzABCDEFGHIJKL',
  'abcdefghijklmnopqrstuvwxyz0123456789+/ABCDEFGHIJKLMN==',
];

describe('own redaction rules (what the library does not cover)', () => {
  it("the issue's misses: DB_PASS, SECRET_KEY_BASE, pin, quoted multi-word passwords, lowercase bearer headers, JWTs, PGP blocks, PEM without END", async () => {
    const jwt =
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
    const out = await redact([
      'DB_PASS=hunter22x',
      'SECRET_KEY_BASE=abcdef0123456789abcdef',
      'pin=84736251',
      'password = "correct horse battery staple"',
      'authorization: bearer abcdef123456.xyz',
      `id ${jwt} end`,
      [
        '-----BEGIN PGP PRIVATE KEY BLOCK-----',
        '',
        ...PEM_BODY,
        '=ab12',
        '-----END PGP PRIVATE KEY BLOCK-----',
      ].join('\n'),
      ['-----BEGIN RSA PRIVATE KEY-----', ...PEM_BODY].join('\n'),
    ]);
    expect(out).toEqual([
      'DB_PASS=[REDACTED:secret-assignment]',
      'SECRET_KEY_BASE=[REDACTED:secret-assignment]',
      'pin=[REDACTED:secret-assignment]',
      'password = "[REDACTED:secret-assignment]"',
      'authorization: bearer [REDACTED:auth-header]',
      'id [REDACTED:jwt] end',
      '[REDACTED:private-key]',
      '[REDACTED:private-key]',
    ]);
  });

  it('never runs past the secret: not across a newline, an escaped newline, a closing quote, a ; or & separator', async () => {
    const out = await redact([
      `deploy key:\n-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY.join('\n')}\nUse it once.`,
      `deploy key:\\n-----BEGIN RSA PRIVATE KEY-----\\n${PEM_BODY.join('\\n')}\\nUse it once.`,
      'Server=db;Password=Secr3t!;Encrypt=true',
      '/v1?api_key=abc123def&page=2',
      'token: "abc 123 def" next: "x"',
      '<summary>Run command: login password=CanaryPass123!</summary>',
    ]);
    expect(out).toEqual([
      'deploy key:\n[REDACTED:private-key]\nUse it once.',
      'deploy key:\\n[REDACTED:private-key]\\nUse it once.',
      'Server=db;Password=[REDACTED:secret-assignment];Encrypt=true',
      '/v1?api_key=[REDACTED:secret-assignment]&page=2',
      'token: "[REDACTED:secret-assignment]" next: "x"',
      '<summary>Run command: login password=[REDACTED:secret-assignment]</summary>',
    ]);
  });

  it('JSON is redacted as JSON: every value type under a secret-named key, double-encoded JSON, escapes and brackets kept, output parses', async () => {
    const inputs = [
      '{"secret": ["S3cr3tValue", 1], "apiKey": 12345678, "n": {"db_password": {"a": 1}}, "ok": "fine", "empty": ""}',
      JSON.stringify({ request: JSON.stringify({ password: 'Pa55\\"word', user: 'bob' }) }),
      '[\n  {"note": "token ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8 here"}\n]',
    ];
    const out = await redact(inputs);
    for (const text of out) expect(() => JSON.parse(text)).not.toThrow();
    expect(JSON.parse(out[0]!)).toEqual({
      secret: '[REDACTED:secret-assignment]',
      apiKey: '[REDACTED:secret-assignment]',
      n: { db_password: '[REDACTED:secret-assignment]' },
      ok: 'fine',
      empty: '',
    });
    expect(JSON.parse(JSON.parse(out[1]!).request)).toEqual({
      password: '[REDACTED:secret-assignment]',
      user: 'bob',
    });
    expect(out[2]).toBe('[\n  {"note": "token [REDACTED:github] here"}\n]');
  });

  it('redacting twice changes nothing more (markers are never secrets), and a secretlint-disable comment does not switch detection off', async () => {
    const once = await redact([
      'postgres://app:S3cretPass@localhost:5432/db and password=hunter22x',
      '// secretlint-disable\nghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8',
    ]);
    expect(once[0]).toBe(
      'postgres://app:[REDACTED:database-connection-string]@localhost:5432/db and password=[REDACTED:secret-assignment]',
    );
    expect(once[1]).toBe('// secretlint-disable\n[REDACTED:github]');
    const counts = {};
    const batch = new TextBatch();
    for (const text of once) batch.text(text);
    expect(await batch.redact({ homePaths: false }, counts)).toEqual(once);
    expect(counts).toEqual({});
  });

  it('home-directory user names only under the opt-in policy, in POSIX and Windows paths', async () => {
    const text = 'cwd /home/alice/project, /Users/bob/x, C:\\Users\\carol\\y and /Users/Shared/z';
    expect(await redact([text])).toEqual([text]);
    expect(await redact([text], true)).toEqual([
      'cwd /home/[REDACTED:home-path]/project, /Users/[REDACTED:home-path]/x, C:\\Users\\[REDACTED:home-path]\\y and /Users/Shared/z',
    ]);
  });
});
