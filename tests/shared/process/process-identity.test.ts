import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  currentHost,
  judgeProcess,
  pidExists,
  processStartTime,
} from '../../../src/shared/process/process-identity.js';
import { fakeHost } from '../../helpers/fake-host.js';

const host = fakeHost;

function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

describe('one liveness rule for recorded processes (run lock and temp owner marker)', () => {
  it('a pid that no longer exists is dead, whatever start time was recorded', () => {
    expect(judgeProcess({ pid: 7, startTime: '500' }, host({ pidExists: () => false }))).toBe('dead');
    expect(judgeProcess({ pid: 7, startTime: null }, host({ pidExists: () => false }))).toBe('dead');
  });

  it('a pid that now names a process with another start time is dead; the same start time is alive', () => {
    expect(judgeProcess({ pid: 7, startTime: '500' }, host({ startTimeOf: () => '999' }))).toBe('dead');
    expect(judgeProcess({ pid: 7, startTime: '500' }, host())).toBe('alive');
  });

  it('uncertain evidence is retained: an unknown start time on either side is uncertain, never dead', () => {
    expect(judgeProcess({ pid: 7, startTime: null }, host())).toBe('uncertain');
    expect(judgeProcess({ pid: 7, startTime: '500' }, host({ startTimeOf: () => null }))).toBe('uncertain');
  });

  it('judges real processes on this host: this process is alive, an exited child is dead', () => {
    const self = { pid: process.pid, startTime: processStartTime(process.pid) };
    const live = currentHost();
    if (self.startTime === null) {
      expect(judgeProcess(self, live)).toBe('uncertain');
    } else {
      expect(self.startTime).toMatch(/^\d+$/);
      expect(judgeProcess(self, live)).toBe('alive');
      expect(judgeProcess({ pid: process.pid, startTime: `${self.startTime}1` }, live)).toBe('dead');
    }
    expect(pidExists(process.pid)).toBe(true);
    expect(pidExists(deadPid())).toBe(false);
    expect(judgeProcess({ pid: deadPid(), startTime: null }, live)).toBe('dead');
  });
});
