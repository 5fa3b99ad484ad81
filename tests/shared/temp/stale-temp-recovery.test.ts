import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judgeMarker, recoverStaleTempDirs } from '../../../src/shared/temp/stale-temp-recovery.js';
import {
  currentOwnerMarker,
  type OwnerMarker,
  parseOwnerMarker,
} from '../../../src/shared/temp/temp-owner-marker.js';
import { fakeHost } from '../../helpers/fake-host.js';
import { tempDir } from '../../helpers/run-cli.js';

const host = fakeHost;
const marker = (over: Partial<OwnerMarker> = {}): OwnerMarker => ({
  v: 2,
  pid: 424242,
  bootId: 'boot-a',
  pidNamespace: 'pid:[1]',
  startTime: '500',
  ...over,
});

describe('stale temp recovery removes only proven-dead owned workspaces', () => {
  it('a pid that no longer exists on the same boot and namespace is dead', () => {
    expect(judgeMarker(marker(), host({ pidExists: () => false }))).toBe('dead');
  });

  it('a reused pid (another process start time) is dead; the same start time is alive', () => {
    expect(judgeMarker(marker(), host({ startTimeOf: () => '999' }))).toBe('dead');
    expect(judgeMarker(marker(), host())).toBe('alive');
  });

  it('another boot, another PID namespace or unreadable identity is uncertain and kept', () => {
    expect(judgeMarker(marker(), host({ bootId: 'boot-b', pidExists: () => false }))).toBe('uncertain');
    expect(judgeMarker(marker(), host({ pidNamespace: 'pid:[2]', pidExists: () => false }))).toBe(
      'uncertain',
    );
    expect(judgeMarker(marker(), host({ bootId: null, pidExists: () => false }))).toBe('uncertain');
    expect(judgeMarker(marker(), host({ startTimeOf: () => null }))).toBe('uncertain');
  });

  it('an identity-less {v:2,pid} marker of earlier builds, v1 and malformed markers are invalid and kept', () => {
    expect(judgeMarker(parseOwnerMarker('{"v":2,"pid":424242}'), host({ pidExists: () => false }))).toBe(
      'invalid',
    );
    expect(parseOwnerMarker('{"v":1,"pid":5}')).toBeNull();
    expect(parseOwnerMarker('not json')).toBeNull();
    expect(judgeMarker(marker({ startTime: null }), host({ pidExists: () => false }))).toBe('uncertain');
  });

  it('on disk: removes a dead run workspace, keeps live, legacy, foreign-mode and unrelated ones', () => {
    const parent = tempDir('etl-stale-');
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid!;
    const make = (name: string, text: string, mode = 0o700): string => {
      const dir = join(parent, name);
      mkdirSync(dir, { mode });
      writeFileSync(join(dir, '.owner'), text, { mode: 0o600 });
      writeFileSync(join(dir, 'payload'), 'x', { mode: 0o600 });
      return dir;
    };
    const live = currentOwnerMarker();
    const dead = make('cursor-etl-dead', JSON.stringify({ ...live, pid: deadPid }));
    const alive = make('cursor-etl-alive', JSON.stringify(live));
    const legacy = make('cursor-etl-legacy', JSON.stringify({ v: 2, pid: deadPid }));
    const open = make('cursor-etl-open', JSON.stringify({ ...live, pid: deadPid }), 0o755);
    const other = make('someone-else', JSON.stringify({ ...live, pid: deadPid }));
    expect(recoverStaleTempDirs(parent, 'cursor-etl-')).toBe(1);
    expect(existsSync(dead)).toBe(false);
    for (const kept of [alive, legacy, open, other]) expect(existsSync(kept)).toBe(true);
  });
});
