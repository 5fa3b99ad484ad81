/**
 * Fatal outcomes of reading one backup archive. Details name the rule that failed and safe
 * counters only: never an entry path, a physical path or content.
 */
import type { DetailsOf } from '../../shared/diagnostic-catalogue.js';
import { IoError, UsageError } from '../../shared/errors.js';

/** The ZIP container breaks a container rule (truncation, unsafe name, method, file type…). */
export class BackupArchiveInvalid extends IoError<'BACKUP_ARCHIVE_INVALID'> {
  constructor(reason: string, details: Omit<DetailsOf<'BACKUP_ARCHIVE_INVALID'>, 'reason'> = {}) {
    super('BACKUP_ARCHIVE_INVALID', `The backup archive is not a valid archive (${reason})`, {
      reason,
      ...details,
    });
  }
}

/** `manifest.json` is missing or breaks a manifest v1 / inventory schemaVersion 1 rule. */
export class BackupManifestInvalid extends IoError<'BACKUP_MANIFEST_INVALID'> {
  constructor(reason: string) {
    super('BACKUP_MANIFEST_INVALID', `The backup manifest is invalid (${reason})`, { reason });
  }
}

/** A workspace-scoped read of a multi-workspace archive that has no inventory to plan it. */
export class BackupScopeMetadataRequired extends UsageError<'BACKUP_WORKSPACE_SCOPE_METADATA_REQUIRED'> {
  constructor(workspaceDatabases: number) {
    super(
      'BACKUP_WORKSPACE_SCOPE_METADATA_REQUIRED',
      'This legacy backup holds several workspaces and no workspace inventory; a workspace-scoped read is impossible',
      {
        workspaceDatabases,
        remedy:
          'Recreate the backup with cursor-history 0.18.0 or later, or omit --workspace to read the whole archive.',
      },
    );
  }
}
