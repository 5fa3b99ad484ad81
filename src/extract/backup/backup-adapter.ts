/**
 * A cursor-history backup archive read as a Composer source (carrier `backup`): the databases the
 * read needs are verified and extracted into a private User tree that a Composer adapter of its own
 * reads, keyed by archive path + entry name so keys stay stable.
 */

import { relative, sep } from 'node:path';
import { diagnostic } from '../../shared/diagnostic.js';
import { InternalError } from '../../shared/errors.js';
import type { SourceKind } from '../../shared/source-fingerprint.js';
import { ComposerAdapter } from '../composer/composer-adapter.js';
import { fingerprintFile, occurrenceRefFor, sourceKeyFor } from '../fs/source-identity.js';
import { planByOwner } from '../plan-by-owner.js';
import type {
  Contribution,
  DiscoveredSource,
  ReadContext,
  SessionOccurrence,
  SourceAdapter,
  SourceRoots,
} from '../source-adapter.js';
import { BackupArchive } from './backup-archive.js';
import type { ManifestFile } from './backup-manifest.js';
import { planRead, workspaceMetadataFor } from './scope-plan.js';

/** Metadata-only occurrences of a global DB that the scope keeps closed (never hydrated). */
async function* closedGlobalOccurrences(
  source: DiscoveredSource,
  sessionIds: readonly string[],
): AsyncIterable<SessionOccurrence> {
  for (const sessionId of sessionIds)
    yield {
      sessionId,
      sourceKey: source.sourceKey,
      representation: 'composer-global',
      carrier: 'backup',
      occurrenceRef: occurrenceRefFor(source.sourceKey, sessionId),
      workspacePath: null,
      workspaceMemberships: [],
      handle: null,
    };
}

export class BackupAdapter implements SourceAdapter {
  readonly name = 'backup';
  private readonly archives: BackupArchive[] = [];
  private readonly readers: SourceAdapter[] = [];
  /** Which archive's Composer reader owns a source key. */
  private readonly owners = new Map<string, SourceAdapter>();
  /** Global DBs closed by the workspace filter: source key → selected sessions they also hold. */
  private readonly closedGlobals = new Map<string, string[]>();
  /** The archive entry name of each source key, for record locators. */
  private readonly entryNames = new Map<string, string>();

  async discover(roots: SourceRoots, ctx: ReadContext): Promise<DiscoveredSource[]> {
    const sources: DiscoveredSource[] = [];
    for (const path of roots.backups) sources.push(...(await this.discoverArchive(path, ctx)));
    return sources;
  }

  catalog(source: DiscoveredSource, ctx: ReadContext): AsyncIterable<SessionOccurrence> {
    const closed = this.closedGlobals.get(source.sourceKey);
    if (closed) return closedGlobalOccurrences(source, closed);
    return this.owner(source.sourceKey).catalog(source, ctx);
  }

  planHydration(occurrences: readonly SessionOccurrence[]): void {
    planByOwner(occurrences, (sourceKey) => this.owners.get(sourceKey));
  }

  planFinal(): void {
    for (const reader of this.readers) reader.planFinal?.();
  }

  async hydrate(occurrence: SessionOccurrence, ctx: ReadContext): Promise<Contribution> {
    if (this.closedGlobals.has(occurrence.sourceKey))
      throw new InternalError('BACKUP_CLOSED_SOURCE', 'A scope-omitted backup database cannot be hydrated');
    const contribution = await this.owner(occurrence.sourceKey).hydrate(occurrence, ctx);
    const entry = this.entryNames.get(occurrence.sourceKey);
    if (entry === undefined) return contribution;
    return { ...contribution, occurrence: { ...contribution.occurrence, recordPrefix: `backup:${entry}!` } };
  }

  close(): void {
    for (const reader of this.readers) reader.close();
    for (const archive of this.archives) archive.close();
    this.readers.length = 0;
    this.archives.length = 0;
    this.owners.clear();
    this.closedGlobals.clear();
    this.entryNames.clear();
  }

  private owner(sourceKey: string): SourceAdapter {
    const reader = this.owners.get(sourceKey);
    if (!reader)
      throw new InternalError('BACKUP_SOURCE_UNKNOWN', 'A backup source key has no owning archive');
    return reader;
  }

  private async discoverArchive(path: string, ctx: ReadContext): Promise<DiscoveredSource[]> {
    const archive = await BackupArchive.open(path, ctx.limits, ctx.temp.file('backup'));
    this.archives.push(archive);
    const plan = planRead(archive.manifest, ctx.requestedWorkspace ?? null, ctx.includeCrossWorkspaceSources);
    if (plan.globalOmittedByScope)
      ctx.diagnostics?.add(
        diagnostic(
          'BACKUP_GLOBAL_OMITTED_BY_SCOPE',
          'The archived global database was not opened under the workspace filter; views are partial',
          {},
          { severity: 'info' },
        ),
      );
    for (const file of plan.databases) {
      if (ctx.signal.aborted) return [];
      const metadata = workspaceMetadataFor(archive.manifest, file);
      if (metadata !== null) await this.extract(archive, metadata, path, ctx);
      await this.extract(archive, file, path, ctx);
    }
    const entryName = (locator: string): string => relative(archive.userDir, locator).split(sep).join('/');
    const keyFor = (kind: SourceKind, locator: string): string =>
      sourceKeyFor(kind, `${path}!/${entryName(locator)}`);
    const reader: SourceAdapter = new ComposerAdapter(keyFor);
    this.readers.push(reader);
    const roots: SourceRoots = {
      cursorUserDir: archive.userDir,
      cursorStoreRoot: null,
      inputs: [],
      backups: [],
      carrier: 'backup',
    };
    // The change evidence of an archived file is the archive's own identity plus the declared SHA-256.
    const archiveStat = fingerprintFile(path);
    const sources = (await reader.discover(roots, ctx)).map((source) => {
      this.owners.set(source.sourceKey, reader);
      this.entryNames.set(source.sourceKey, entryName(source.locator));
      return { ...source, fingerprint: { ...archiveStat, size: source.fingerprint.size } };
    });
    if (plan.omittedGlobalSessionIds.length > 0 && !ctx.includeCrossWorkspaceSources) {
      // The closed global DB still counts as a known contributor, so the views are explicitly partial.
      const locator = `${path}!/globalStorage/state.vscdb`;
      const sourceKey = sourceKeyFor('composer-global-db', locator);
      this.closedGlobals.set(sourceKey, plan.omittedGlobalSessionIds);
      sources.push({
        sourceKey,
        kind: 'composer-global-db',
        carrier: 'backup',
        locator,
        fingerprint: { ...archiveStat, size: 0 },
      });
    }
    return sources;
  }

  /** Verified extraction; a mismatch becomes a diagnostic and the file is never used. */
  private async extract(
    archive: BackupArchive,
    file: ManifestFile,
    path: string,
    ctx: ReadContext,
  ): Promise<void> {
    const outcome = await archive.materialize(file);
    if (outcome.ok) {
      ctx.counters.chargePayload(file.size);
      return;
    }
    ctx.diagnostics?.add(
      diagnostic(
        'BACKUP_ENTRY_INTEGRITY_MISMATCH',
        'An archived file does not match its manifest and was skipped',
        { entryType: file.type, problem: outcome.problem, declaredBytes: file.size },
        { sourceRef: sourceKeyFor('backup-archive', `${path}!/${file.path}`) },
      ),
    );
  }
}
