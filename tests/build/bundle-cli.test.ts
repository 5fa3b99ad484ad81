import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const CLI_DIR = resolve('dist/src/cli');
/** esbuild heads each bundled module with a `// <path>` comment line. */
const SECRETLINT = /^\/\/ node_modules\/@secretlint\//m;
const REDACT_SESSION = /^\/\/ dist\/src\/transform\/redact\/redact-session\.js$/m;

function read(file: string): string {
  return readFileSync(join(CLI_DIR, file), 'utf8');
}

/** The files a module links before it runs: its static imports, followed to the end; dynamic ones excluded. */
function staticClosure(entry: string): Map<string, string> {
  const seen = new Map<string, string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    const text = read(file);
    seen.set(file, text);
    const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/') + 1) : '';
    for (const match of text.matchAll(/^(?:import|export)\b[^;'"]*?(?:from\s*)?"(\.\/[^"]+)";?$/gm))
      pending.push(`${dir}${match[1]!.slice(2)}`);
  }
  return seen;
}

/** The chunk a dynamic `import("./chunks/<name>-<hash>.js")` in `text` names. */
function dynamicChunk(text: string, name: string): string {
  const match = new RegExp(`import\\("\\./(?:chunks/)?(${name}-[A-Z0-9]+\\.js)"\\)`).exec(text);
  expect(match, `a dynamic import of ${name}`).not.toBeNull();
  return `chunks/${match![1]}`;
}

describe('the bundled CLI (build/bundle-cli.ts)', () => {
  it('an `etl run`, resolving sessions or not, links no secret scanner: secretlint and the session redactor load only when a run redacts', () => {
    const runChunk = dynamicChunk(read('main.js'), 'run');
    const linked = [...staticClosure('main.js'), ...staticClosure(runChunk)];
    expect(linked.length).toBeGreaterThan(10);
    expect(linked.filter(([, text]) => SECRETLINT.test(text)).map(([file]) => file)).toEqual([]);
    expect(linked.filter(([, text]) => REDACT_SESSION.test(text)).map(([file]) => file)).toEqual([]);
    // The redactor is still bundled, behind the dynamic import a redacting run takes.
    const resolver = staticClosure(dynamicChunk(linked.map(([, t]) => t).join('\n'), 'resolve-for-load'));
    const resolving = [...resolver];
    expect(resolving.filter(([, text]) => SECRETLINT.test(text)).map(([file]) => file)).toEqual([]);
    const redactor = [
      ...staticClosure(dynamicChunk(resolving.map(([, t]) => t).join('\n'), 'redact-session')),
    ];
    expect(redactor.some(([, text]) => SECRETLINT.test(text))).toBe(true);
    expect(redactor.some(([, text]) => REDACT_SESSION.test(text))).toBe(true);
  });
});
