/**
 * The optional config file (`--config <file>`, JSON) so a cron line stays short. Command-line
 * options win over it. Validated with zod; unknown keys are rejected. Documented in docs/operations.md.
 */
import { readFileSync } from 'node:fs';
import { decodeStrictUtf8 } from '../extract/text/strict-utf8.js';
import { NotFoundError, UsageError } from '../shared/errors.js';
import type { ConfigFile } from './config-file-schema.js';

export async function loadConfigFile(path: string | undefined): Promise<ConfigFile> {
  if (path === undefined) return {};
  let text: string;
  try {
    text = decodeStrictUtf8(readFileSync(path), 'config');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new NotFoundError('CONFIG_NOT_FOUND', 'The config file does not exist', {});
    }
    throw new UsageError('CONFIG_INVALID', 'The config file could not be read as UTF-8 text', {});
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError('CONFIG_INVALID', 'The config file is not valid JSON', {});
  }
  const { configFileSchema } = await import('./config-file-schema.js');
  const result = configFileSchema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new UsageError(
      'CONFIG_INVALID',
      `The config file is invalid at ${issue?.path.join('.') || '(root)'}`,
      {
        path: issue?.path.join('.') ?? '',
        problem: issue?.message ?? 'invalid',
      },
    );
  }
  return result.data;
}
