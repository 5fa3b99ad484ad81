import { describe, expect, it } from 'vitest';
import { OverlappedLoad } from '../../src/sync/overlapped-load.js';

/** A load the test finishes by hand, recording when it started. */
function manualLoad(log: string[], name: string) {
  let finish!: (error?: Error) => void;
  const load = (): Promise<void> => {
    log.push(`start ${name}`);
    return new Promise<void>((resolve, reject) => {
      finish = (error) => (error ? reject(error) : resolve());
    });
  };
  return { load, finish: (error?: Error) => finish(error) };
}

describe('OverlappedLoad', () => {
  it('returns while a load runs, and starts the next only after the previous finished', async () => {
    const log: string[] = [];
    const loads = new OverlappedLoad();
    const a = manualLoad(log, 'a');
    const b = manualLoad(log, 'b');
    await loads.start(a.load);
    const startingB = loads.start(b.load);
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['start a']);
    a.finish();
    await startingB;
    expect(log).toEqual(['start a', 'start b']);
    b.finish();
    await loads.settle();
  });

  it('surfaces a failed load at the next start, without an unhandled rejection in between', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', onUnhandled);
    try {
      const log: string[] = [];
      const loads = new OverlappedLoad();
      const a = manualLoad(log, 'a');
      await loads.start(a.load);
      a.finish(new Error('disk full'));
      await new Promise((resolve) => setImmediate(resolve));
      await expect(loads.start(manualLoad(log, 'b').load)).rejects.toThrow('disk full');
      expect(log).toEqual(['start a']);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('settle waits for the load in flight and reports its error once', async () => {
    const log: string[] = [];
    const loads = new OverlappedLoad();
    const a = manualLoad(log, 'a');
    await loads.start(a.load);
    const settling = loads.settle();
    a.finish(new Error('rolled back'));
    await expect(settling).rejects.toThrow('rolled back');
    await expect(loads.settle()).resolves.toBeUndefined();
  });
});
