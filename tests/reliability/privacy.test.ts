import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { rawBytes, rawText } from '../../fixtures/composer/state-db-builder.js';
import {
  CANARY_COMPOSER,
  globalDbPath,
  userDirUnder,
  writeBaselineGlobalDb,
} from '../../fixtures/hostile/baseline-corpus.js';
import { ALL_CANARIES, canariesIn, MESSAGE_CANARY } from '../../fixtures/hostile/canaries.js';
import { SAMPLE_COMPOSERS } from '../../fixtures/sample/sample-corpus.js';
import { tempDir } from '../helpers/run-cli.js';
import { type EtlResult, preloadPath, runEtl, STACK_TRACE, tempResidue } from './harness/etl-process.js';

const DENY_NETWORK = preloadPath('deny-network');

describe('privacy: canaries never reach any output; no network; owner-only files', () => {
  let root: string;
  let userDir: string;
  let damagedUserDir: string;
  let garbageUserDir: string;
  let warehouse: string;
  let tmp: string;
  let networkLog: string;
  const outputs: { label: string; result: EtlResult }[] = [];
  const etl = (label: string, args: string[]): EtlResult => {
    const result = runEtl(args, {
      tmpDir: tmp,
      preloads: [DENY_NETWORK],
      env: { ETL_NETWORK_LOG: networkLog },
    });
    outputs.push({ label, result });
    return result;
  };

  beforeAll(() => {
    root = tempDir('etl-privacy-');
    tmp = join(root, 'tmp');
    networkLog = join(root, 'network.log');
    userDir = userDirUnder(join(root, 'healthy'));
    writeBaselineGlobalDb(userDir).close();
    // The same corpus with the canary session damaged three ways, each carrying the message canary.
    damagedUserDir = userDirUnder(join(root, 'damaged'));
    const damaged = writeBaselineGlobalDb(damagedUserDir);
    const id = CANARY_COMPOSER.id;
    damaged.bubble(id, 'b-c1-03', rawText(`{"text": "${MESSAGE_CANARY}", broken`));
    damaged.bubble(id, 'b-c1-04', rawBytes(Buffer.from(`{"text":"${MESSAGE_CANARY}\xff"}`, 'latin1')));
    damaged.bubble(
      SAMPLE_COMPOSERS[0]!.id,
      'b-huge',
      rawText(JSON.stringify({ text: MESSAGE_CANARY.repeat(400) })),
    );
    damaged.close();
    garbageUserDir = userDirUnder(join(root, 'garbage'));
    writeBaselineGlobalDb(garbageUserDir).close();
    writeFileSync(globalDbPath(garbageUserDir), `SQLite format 3\0${MESSAGE_CANARY}`.repeat(64));
    warehouse = join(root, 'private-dir', 'warehouse.duckdb');
    const target = `duckdb:${warehouse}`;

    for (const json of [['--json'], []]) {
      const human = json.length === 0;
      etl('run', ['run', ...json, '--cursor-user-dir', userDir, '--target', target]);
      etl('run damaged', [
        'run',
        ...json,
        '--cursor-user-dir',
        damagedUserDir,
        '--target',
        target,
        '--source-limit',
        'sqliteValueBytes=4KiB',
      ]);
      etl('run garbage', ['run', ...json, '--cursor-user-dir', garbageUserDir, '--target', target]);
      etl('status', ['status', ...json, '--target', target]);
      if (human) continue;
      etl('verify', ['verify', ...json, '--target', target]);
      etl('sources', ['sources', ...json, '--cursor-user-dir', damagedUserDir]);
    }
    etl('diagnostics table', ['query', '--json', '--target', target, 'SELECT * FROM diagnostics']);
    etl('runs table', ['query', '--json', '--target', target, 'SELECT * FROM etl_runs']);
  }, 600_000);

  it('the fixture really plants every canary (the message canary is archived as content)', () => {
    const content = runEtl(
      ['query', '--json', '--target', `duckdb:${warehouse}`, 'SELECT content FROM messages'],
      { tmpDir: tmp },
    );
    expect(content.stdout).toContain(MESSAGE_CANARY);
    expect(readFileSync(globalDbPath(userDir)).toString('latin1')).toContain(ALL_CANARIES[1]);
    expect(userDir).toContain(ALL_CANARIES[2]);
  });

  it('diagnostics, logs, etl status and error objects never contain message content, secrets or source paths', () => {
    expect(outputs.map((o) => o.label)).toContain('run garbage');
    // The over-limit session has no other safe contributor: the run is fatal (exit 4) after loading the rest.
    const damagedRun = outputs.find((o) => o.label === 'run damaged')!.result;
    expect(damagedRun.code).toBe(4);
    expect(JSON.parse(damagedRun.stderr).error.code).toBe('SOURCE_LIMIT_EXCEEDED');
    const table = outputs.find((o) => o.label === 'diagnostics table')!.result;
    const diagnosticCodes = (JSON.parse(table.stdout).rows as { code: string }[]).map((d) => d.code);
    expect(diagnosticCodes).toEqual(
      expect.arrayContaining(['COMPOSER_BUBBLE_CORRUPTED', 'SOURCE_LIMIT_EXCEEDED']),
    );
    const garbageRun = outputs.find((o) => o.label === 'run garbage')!.result;
    expect(garbageRun.code).toBe(4);
    for (const { label, result } of outputs) {
      expect({ label, leaked: canariesIn(result.stdout + result.stderr) }).toEqual({ label, leaked: [] });
      expect({ label, stack: STACK_TRACE.test(result.stderr) }).toEqual({ label, stack: false });
    }
  });

  it('no network: no socket, DNS, HTTP or TLS attempt during any run (preload denies and logs them)', () => {
    expect(outputs.length).toBeGreaterThanOrEqual(11);
    expect(existsSync(networkLog) ? readFileSync(networkLog, 'utf8') : '').toBe('');
  });

  it('no network: a traced full run makes no socket() or connect() system call, native code included', () => {
    const trace = join(root, 'strace.txt');
    const probe = runEtl(['--help'], {
      tmpDir: tmp,
      command: ['strace', '-f', '-qq', '-o', trace, '-e', 'trace=none'],
    });
    const traced = probe.code === 0;
    const result = runEtl(
      ['run', '--json', '--cursor-user-dir', userDir, '--target', `duckdb:${join(root, 'traced.duckdb')}`],
      {
        tmpDir: tmp,
        ...(traced
          ? { command: ['strace', '-f', '-qq', '-o', trace, '-e', 'trace=socket,connect,sendto,sendmsg'] }
          : {}),
        preloads: [DENY_NETWORK],
        env: { ETL_NETWORK_LOG: networkLog },
      },
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).run.counts.sessionsInserted).toBe(4);
    // Without ptrace (some sandboxes) the JS-level preload above is the remaining guard.
    if (traced) expect(readFileSync(trace, 'utf8')).toBe('');
  }, 300_000);

  it('the warehouse is created 0600 in a 0700 directory; no run leaves anything in its private TMPDIR', () => {
    expect(statSync(warehouse).mode & 0o777).toBe(0o600);
    expect(statSync(join(root, 'private-dir')).mode & 0o777).toBe(0o700);
    expect(tempResidue(tmp)).toEqual([]);
  });
});
