import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBackup, writeBackup } from '../../../fixtures/backup/backup-builder.js';
import type { ZipEntrySpec } from '../../../fixtures/backup/zip-writer.js';
import type { FixtureComposer } from '../../../fixtures/composer/composer-session.js';
import type { EtlError } from '../../../src/shared/errors.js';
import { queryRows, runBackups, tempResidue } from '../../helpers/backup-run.js';
import { tempDir } from '../../helpers/run-cli.js';

const session = (id: string, text: string): FixtureComposer => ({
  id,
  name: `session ${id}`,
  createdAt: 1_750_000_000_000,
  bubbles: [
    { id: `${id}-u`, role: 'user', text },
    { id: `${id}-a`, role: 'assistant', text: `reply to ${text}` },
  ],
});

const GOOD = [session('s-archived', 'original question')];
/** Every hostile archive carries a changed copy of the archived session: it must never land. */
const CHANGED = [session('s-archived', 'tampered question'), session('s-new', 'new question')];

let root: string;
let warehouse: string;
let previousTmp: string | undefined;
let archivedDigest: string;

const digest = async (): Promise<string> =>
  String(
    (await queryRows(warehouse, "select view_digest from sessions where session_id = 's-archived'"))[0]
      ?.view_digest,
  );

function hostile(
  name: string,
  tamper: (entries: ZipEntrySpec[], manifest: Record<string, unknown>) => void,
): string {
  return writeBackup(join(root, `${name}.zip`), { global: CHANGED, tamper });
}

async function expectFatal(
  archive: string,
  code: string,
  details: Record<string, unknown>,
  limits = {},
): Promise<void> {
  const error = (await runBackups([archive], warehouse, { limits }).then(
    () => null,
    (e: unknown) => e,
  )) as EtlError | null;
  expect(error?.code).toBe(code);
  expect(error?.details).toMatchObject(details);
  expect(tempResidue(root)).toEqual([]);
  expect(await digest()).toBe(archivedDigest);
  const rows = await queryRows(
    warehouse,
    "select count(*)::int as n from sessions where session_id = 's-new'",
  );
  expect(rows[0]?.n).toBe(0);
}

beforeAll(async () => {
  root = tempDir('etl-backup-hostile-');
  previousTmp = process.env.TMPDIR;
  process.env.TMPDIR = root;
  warehouse = join(root, 'warehouse.duckdb');
  await runBackups([writeBackup(join(root, 'good.zip'), { global: GOOD })], warehouse);
  archivedDigest = await digest();
});

afterAll(() => {
  process.env.TMPDIR = previousTmp;
});

describe('hostile backup archives: typed fatal outcome, no temp residue, archived sessions unchanged', () => {
  it('zip bomb: an entry over the 200:1 compression ratio is SOURCE_LIMIT_EXCEEDED before extraction', async () => {
    const archive = hostile('bomb', (entries) => {
      entries.push({
        name: 'workspaceStorage/w/state.vscdb',
        data: Buffer.alloc(1_000_000),
        method: 'deflate',
      });
    });
    await expectFatal(archive, 'SOURCE_LIMIT_EXCEEDED', {
      bound: 'zipCompressionRatio',
      unit: 'ratio',
      outcome: 'fatal',
      sourceKind: 'zip',
    });
  });

  it('entry count over zipEntryCount fails at limit + 1 (equality passes)', async () => {
    const archive = writeBackup(join(root, 'count.zip'), { global: CHANGED });
    await expectFatal(
      archive,
      'SOURCE_LIMIT_EXCEEDED',
      { bound: 'zipEntryCount', limit: 1, observedAtLeast: 2 },
      {
        zipEntryCount: 1,
      },
    );
  });

  it('an entry whose declared size is over zipEntryBytes fails from the central directory', async () => {
    const archive = writeBackup(join(root, 'entry-bytes.zip'), { global: CHANGED });
    await expectFatal(
      archive,
      'SOURCE_LIMIT_EXCEEDED',
      { bound: 'zipEntryBytes', limit: 1024 },
      { zipEntryBytes: 1024 },
    );
  });

  it('the archive container over zipCompressedBytes fails before it is opened', async () => {
    const archive = writeBackup(join(root, 'container.zip'), { global: CHANGED });
    await expectFatal(
      archive,
      'SOURCE_LIMIT_EXCEEDED',
      { bound: 'zipCompressedBytes' },
      {
        zipCompressedBytes: 4096,
      },
    );
  });

  it('a central-directory size lie is caught on the streamed output', async () => {
    const archive = hostile('central-lie', (entries, manifest) => {
      const claimed = entries[0]!.data.length - 100;
      entries[0]!.method = 'deflate';
      entries[0]!.lie = { uncompressedSize: claimed };
      (manifest.files as { size: number }[])[0]!.size = claimed;
    });
    await expectFatal(archive, 'BACKUP_ARCHIVE_INVALID', { reason: 'entry-stream-invalid' });
  });

  it('an undeclared entry makes the manifest invalid', async () => {
    const archive = hostile('undeclared', (entries) => {
      entries.push({ name: 'workspaceStorage/x/extra.bin', data: Buffer.from('x') });
    });
    await expectFatal(archive, 'BACKUP_MANIFEST_INVALID', { reason: 'undeclared-entry' });
  });

  const unsafeNames: [string, string | Buffer, string][] = [
    ['parent traversal', '../globalStorage/state.vscdb', 'dot-segment'],
    ['nested traversal', 'workspaceStorage/../../etc/passwd', 'dot-segment'],
    ['absolute path', '/etc/passwd', 'absolute'],
    ['drive letter', 'C:/Windows/state.vscdb', 'drive-letter'],
    ['backslash', 'workspaceStorage\\w\\state.vscdb', 'backslash'],
    ['control character', 'workspaceStorage/w\u0001/state.vscdb', 'control-character'],
    ['device name', 'workspaceStorage/CON/state.vscdb', 'device-name'],
    ['trailing dot', 'workspaceStorage/w./state.vscdb', 'trailing-dot-or-space'],
    ['invalid UTF-8', Buffer.from([0x77, 0xff, 0x2f, 0x78]), 'invalid-utf8'],
  ];
  for (const [label, name, problem] of unsafeNames) {
    it(`unsafe entry name (${label}) is rejected as ${problem}`, async () => {
      const archive = hostile(`unsafe-${problem}-${label.length}`, (entries) => {
        entries.push({ name, data: Buffer.from('payload') });
      });
      await expectFatal(archive, 'BACKUP_ARCHIVE_INVALID', {
        reason: 'unsafe-entry-name',
        nameProblem: problem,
      });
    });
  }

  it('duplicate names after NFC + lowercase are rejected', async () => {
    const archive = hostile('dup', (entries) => {
      entries.push({ name: 'GlobalStorage/State.vscdb', data: entries[0]!.data });
    });
    await expectFatal(archive, 'BACKUP_ARCHIVE_INVALID', { reason: 'duplicate-entry-name' });
  });

  it('a symlink entry is not a regular file and is rejected', async () => {
    const archive = hostile('symlink', (entries) => {
      entries.push({
        name: 'workspaceStorage/w/state.vscdb',
        data: Buffer.from('/etc/passwd'),
        lie: { unixMode: 0o120777 },
      });
    });
    await expectFatal(archive, 'BACKUP_ARCHIVE_INVALID', { reason: 'non-regular-entry' });
  });

  it('a directory record is not a regular file and is rejected', async () => {
    const archive = hostile('directory', (entries) => {
      entries.push({ name: 'workspaceStorage/', data: Buffer.alloc(0), lie: { unixMode: 0o040755 } });
    });
    await expectFatal(archive, 'BACKUP_ARCHIVE_INVALID', { reason: 'non-regular-entry' });
  });

  it('a truncated archive is rejected', async () => {
    const bytes = buildBackup({ global: CHANGED });
    const archive = join(root, 'truncated.zip');
    writeFileSync(archive, bytes.subarray(0, bytes.length - 40));
    await expectFatal(archive, 'BACKUP_ARCHIVE_INVALID', { reason: 'container-unreadable' });
  });

  it('a local header whose sizes disagree with the central directory is rejected', async () => {
    const bytes = Buffer.from(buildBackup({ global: CHANGED }));
    // The first local header's compressed size (offset 18); the central record keeps the true one.
    bytes.writeUInt32LE(0xffff, 18);
    const archive = join(root, 'local-size-lie.zip');
    writeFileSync(archive, bytes);
    await expectFatal(archive, 'BACKUP_ARCHIVE_INVALID', { reason: 'local-central-mismatch' });
  });

  it('a directory where the archive should be is not a regular file', async () => {
    const archive = join(root, 'a-directory.zip');
    mkdirSync(archive);
    await expectFatal(archive, 'BACKUP_ARCHIVE_INVALID', { reason: 'not-a-regular-file' });
  });

  it('a symlink loop where the archive should be is an unreadable container, not an internal error', async () => {
    const archive = join(root, 'loop.zip');
    symlinkSync(archive, archive);
    await expectFatal(archive, 'BACKUP_ARCHIVE_INVALID', { reason: 'container-unreadable', errno: 'ELOOP' });
  });

  it('an encrypted entry is rejected', async () => {
    const archive = hostile('encrypted', (entries) => {
      entries[0]!.method = 'deflate';
      entries[0]!.lie = { flags: 0x0801 };
    });
    await expectFatal(archive, 'BACKUP_ARCHIVE_INVALID', { reason: 'encrypted-entry' });
  });

  it('a compression method other than STORE or DEFLATE is rejected', async () => {
    const archive = hostile('bzip2', (entries) => {
      entries[0]!.method = 'deflate';
      entries[0]!.lie = { compressionMethod: 12 };
    });
    await expectFatal(archive, 'BACKUP_ARCHIVE_INVALID', {
      reason: 'unsupported-compression-method',
      method: 12,
    });
  });
});

describe('lazy integrity: a mismatched entry is skipped with a diagnostic and never used', () => {
  const cases: [string, (entries: ZipEntrySpec[], manifest: Record<string, unknown>) => void, string][] = [
    [
      'checksum mismatch',
      (_entries, manifest) => {
        const files = manifest.files as { checksum: string }[];
        files[0]!.checksum = `sha256:${'0'.repeat(64)}`;
      },
      'checksum',
    ],
    [
      'declared manifest size differs from the entry',
      (_entries, manifest) => {
        const files = manifest.files as { size: number }[];
        files[0]!.size += 1;
      },
      'size',
    ],
  ];
  for (const [label, tamper, problem] of cases) {
    it(`${label}: BACKUP_ENTRY_INTEGRITY_MISMATCH (${problem}), nothing loaded from it`, async () => {
      const summary = await runBackups([hostile(`integrity-${problem}`, tamper)], warehouse);
      const codes = summary.diagnostics.map((d) => [d.code, d.details.problem]);
      expect(codes).toContainEqual(['BACKUP_ENTRY_INTEGRITY_MISMATCH', problem]);
      expect(summary.counts.sessionsInserted + summary.counts.sessionsReplaced).toBe(0);
      expect(tempResidue(root)).toEqual([]);
      expect(await digest()).toBe(archivedDigest);
    });
  }
});
