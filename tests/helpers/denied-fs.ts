/**
 * A `node:fs` for `vi.mock` in which chosen paths refuse to be listed, opened or read (the suite
 * runs as root, whom `chmod 000` does not deny): `vi.mock('node:fs', async (o) => (await
 * import('…/denied-fs.js')).deniedFs(await o()))`, then `denied.set(path, 'EACCES')`.
 */
export const denied = new Map<string, string>();

/** Every path given to `lstatSync` or `statSync` through the mock, in call order. */
export const statted: string[] = [];

const REFUSING = ['readdirSync', 'openSync', 'readFileSync'] as const;
const COUNTED = ['lstatSync', 'statSync'] as const;

export function deniedFs<T extends Record<string, unknown>>(fs: T): T {
  const patched: Record<string, unknown> = {};
  for (const name of REFUSING) {
    const original = fs[name] as (...args: unknown[]) => unknown;
    patched[name] = (path: unknown, ...rest: unknown[]): unknown => {
      const code = typeof path === 'string' ? denied.get(path) : undefined;
      if (code !== undefined) throw Object.assign(new Error(`${code}: refused by the test`), { code });
      return original(path, ...rest);
    };
  }
  for (const name of COUNTED) {
    const original = fs[name] as (...args: unknown[]) => unknown;
    patched[name] = (path: unknown, ...rest: unknown[]): unknown => {
      statted.push(String(path));
      return original(path, ...rest);
    };
  }
  return { ...fs, ...patched, default: { ...fs, ...patched } };
}
