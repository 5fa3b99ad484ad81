import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const MODULE = pathToFileURL(resolve('dist/src/shared/collect-garbage.js')).href;

/** Whether an unreachable object is gone after `collectGarbage()` in a Node started with `flags`. */
function collectedUnder(flags: readonly string[]): string {
  const script = `
    import { collectGarbage } from ${JSON.stringify(MODULE)};
    let target = { rows: new Array(1000).fill('row') };
    const ref = new WeakRef(target);
    target = null;
    // A WeakRef keeps its target alive until the current job ends.
    await new Promise((resolve) => setTimeout(resolve, 0));
    collectGarbage();
    process.stdout.write(ref.deref() === undefined ? 'collected' : 'alive');`;
  const result = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  expect(result.stderr).toBe('');
  return result.stdout;
}

describe('collectGarbage', () => {
  it('collects an unreachable object under the launcher flag --expose-gc', () => {
    expect(collectedUnder(['--expose-gc'])).toBe('collected');
  });

  it('is a no-op, not an error, in a process started without it', () => {
    expect(['alive', 'collected']).toContain(collectedUnder([]));
  });
});
