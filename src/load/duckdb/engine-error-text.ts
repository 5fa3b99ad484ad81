/**
 * DuckDB's error text made fit for a CLI error: its first line, with what it quotes from the query
 * or the data (string values, paths, URLs) replaced, since errors carry no content and no paths.
 */

/** A single-quoted SQL string, `''` included: a value from the query or the warehouse. */
const STRING_VALUE = /'(?:[^']|'')*'/g;
/** A double-quoted name: kept (column and table names), unless it names a file or a URL. */
const QUOTED_NAME = /"(?:[^"]|"")*"/g;
/** A bare absolute path, home path, Windows path or URL, as DuckDB prints table names it could not find. */
const BARE_PATH = /(^|[\s(=,:])(?:\/|~\/|[A-Za-z]:\\|[A-Za-z][A-Za-z0-9+.-]*:\/\/)[^\s"',)]*/g;

const pathLike = (text: string): boolean => /[/\\]/.test(text);

/** True when DuckDB refused a file or network access because the sandbox closed it. */
export function isSandboxRefusal(error: unknown): boolean {
  return error instanceof Error && /^Permission Error:/.test(error.message);
}

export function engineErrorLine(error: unknown): string {
  if (!(error instanceof Error)) return 'query failed';
  return error.message
    .split('\n')[0]!
    .replace(STRING_VALUE, "'…'")
    .replace(QUOTED_NAME, (name) => (pathLike(name) ? '"…"' : name))
    .replace(BARE_PATH, '$1…')
    .slice(0, 300);
}
