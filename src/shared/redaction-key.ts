/**
 * The identity key of redacted warehouses (identity-seal.ts): 32 random bytes as hex in a file
 * outside every warehouse (`$XDG_CONFIG_HOME/cursor-etl/redaction.key` or `redactionKeyFile`),
 * created owner-only. It confirms guesses against sealed IDs, so it never sits with the data.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { IoError, UsageError } from './errors.js';

function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function defaultRedactionKeyPath(env = process.env): string {
  const configHome =
    env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.length > 0 ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return join(configHome, 'cursor-etl', 'redaction.key');
}

/** The key's hex text, creating the file when it does not exist yet. */
export function loadRedactionKey(path: string = defaultRedactionKeyPath()): string {
  if (!existsSync(path)) {
    const temp = join(dirname(path), `.${basename(path)}.tmp-${process.pid}`);
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      writeFileSync(temp, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
      fsyncPath(temp);
      // A link never replaces a key another process created meanwhile: that one is used instead.
      try {
        linkSync(temp, path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      fsyncPath(dirname(path));
    } catch {
      throw new IoError('REDACTION_KEY_UNWRITABLE', 'The redaction identity key file could not be created', {
        remedy: 'Point `redactionKeyFile` in the config file at a writable location.',
      });
    } finally {
      rmSync(temp, { force: true });
    }
  }
  let text: string;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch {
    throw new IoError('REDACTION_KEY_UNREADABLE', 'The redaction identity key file could not be read', {});
  }
  if (!/^[0-9a-f]{64}$/.test(text)) {
    throw new UsageError('REDACTION_KEY_INVALID', 'The redaction identity key file does not hold a key', {
      remedy: 'The file must hold 64 lower-case hex digits (32 bytes), as cursor-etl writes it.',
    });
  }
  return text;
}
