/** Turns CLI flags and the config file into validated pipeline options, before any source I/O. */
import { resolve } from 'node:path';
import { currentEnvironment, type DataRootEnvironment } from '../extract/data-roots.js';
import { resolveReadLimits } from '../extract/limits/read-limits.js';
import { parseSourceLimitOptions } from '../extract/limits/source-limit-option.js';
import type { SourceRoots } from '../extract/source-adapter.js';
import type { OutputPermissions } from '../shared/output-permissions.js';
import { loadRedactionKey } from '../shared/redaction-key.js';
import { defaultOrigin, parseOrigin } from '../shared/run-origin.js';
import type { RedactionRequest } from '../sync/redaction-gate.js';
import type { RunOptions } from '../sync/run-state.js';
import { loadConfigFile } from './config-file.js';
import type { ConfigFile } from './config-file-schema.js';
import { defaultAdditionalRoots, defaultCursorStoreRoot, defaultCursorUserDir } from './default-paths.js';
import { parseTargetSpec, type TargetSpec } from './target-spec.js';

export interface RunFlags {
  cursorUserDir?: string;
  cursorStoreRoot?: string;
  target?: string;
  sinceLast?: boolean;
  workspace?: string;
  includeCrossWorkspaceSources?: boolean;
  prefer?: 'composer' | 'store';
  input?: string[];
  backup?: string[];
  backupMayReplace?: boolean;
  sourceLimit?: string[];
  config?: string;
  redact?: boolean;
  redactHomePaths?: boolean;
  allowUnredacted?: boolean;
  sharedPermissions?: boolean;
  origin?: string;
}

export interface ResolvedRun {
  options: RunOptions;
  target: TargetSpec;
  workspace: string | null;
  permissions: OutputPermissions;
}

/** The run's redaction request: flags over the config file; the key file is read only when needed. */
export function redactionRequest(flags: RunFlags, config: ConfigFile): RedactionRequest {
  const keyFile = config.redactionKeyFile === undefined ? undefined : resolve(config.redactionKeyFile);
  const redact = flags.redact ?? config.redact;
  const homePaths = flags.redactHomePaths ?? config.redactHomePaths;
  return {
    ...(redact === undefined ? {} : { redact }),
    ...(homePaths === undefined ? {} : { homePaths }),
    allowUnredacted: flags.allowUnredacted === true,
    loadKey: () => loadRedactionKey(keyFile),
  };
}

/** `--origin` over the config file's `origin`, else the name derived from user and host. */
export function resolveOrigin(value: string | undefined): string {
  return value === undefined ? defaultOrigin() : parseOrigin(value);
}

/** `environment` is what default discovery may read of the machine (tests inject it). */
export async function resolveRunFlags(
  flags: RunFlags,
  environment: DataRootEnvironment = currentEnvironment(),
): Promise<ResolvedRun> {
  const config = await loadConfigFile(flags.config);
  // CLI limits are validated as a whole map over the config ones; a CLI field overrides its config value.
  const limits = resolveReadLimits({
    ...(config.sourceLimits ?? {}),
    ...parseSourceLimitOptions(flags.sourceLimit ?? []),
  });
  const userDir = flags.cursorUserDir ?? config.cursorUserDir;
  const storeRoot = flags.cursorStoreRoot ?? config.cursorStoreRoot;
  const custom = userDir !== undefined || storeRoot !== undefined;
  const cursorUserDir = custom ? (userDir === undefined ? null : resolve(userDir)) : defaultCursorUserDir();
  const cursorStoreRoot = custom
    ? storeRoot === undefined
      ? null
      : resolve(storeRoot)
    : defaultCursorStoreRoot();
  const roots: SourceRoots = {
    cursorUserDir,
    cursorStoreRoot,
    additionalRoots: custom ? [] : defaultAdditionalRoots([cursorUserDir!, cursorStoreRoot!], environment),
    inputs: [...(config.inputs ?? []), ...(flags.input ?? [])].map((p) => resolve(p)),
    backups: [...(config.backups ?? []), ...(flags.backup ?? [])].map((p) => resolve(p)),
    carrier: custom ? 'custom' : 'live',
  };
  return {
    options: {
      roots,
      limits,
      sinceLast: flags.sinceLast ?? config.sinceLast ?? false,
      preferredSource: flags.prefer ?? config.prefer ?? 'composer',
      includeCrossWorkspaceSources:
        flags.includeCrossWorkspaceSources ?? config.includeCrossWorkspaceSources ?? false,
      backupMayReplace: flags.backupMayReplace ?? config.backupMayReplace ?? false,
      workspace: flags.workspace ?? config.workspace ?? null,
      redaction: redactionRequest(flags, config),
      origin: resolveOrigin(flags.origin ?? config.origin),
    },
    target: parseTargetSpec(flags.target ?? config.target),
    workspace: flags.workspace ?? config.workspace ?? null,
    permissions: (flags.sharedPermissions ?? config.sharedPermissions) ? 'shared' : 'private',
  };
}
