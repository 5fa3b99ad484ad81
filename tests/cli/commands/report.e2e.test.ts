import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_TEXT, SECRET_TOKEN } from '../../../fixtures/report/report-corpus.js';
import { buildTimeCorpus } from '../../../fixtures/time/time-corpus.js';
import { loadReportCorpus } from '../../helpers/report-warehouse.js';
import { runCli, tempDir } from '../../helpers/run-cli.js';

let duckdb = '';

function report(
  target: string,
  extra: readonly string[] = [],
): { html: string; json: Record<string, unknown> } {
  const out = join(tempDir('etl-report-out-'), 'report.html');
  const run = runCli(['report', '--json', '--target', target, '--out', out, ...extra]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return { html: readFileSync(out, 'utf8'), json: JSON.parse(run.stdout) };
}

/** The JSON blocks of the listed sessions, parsed back. */
const blocks = (html: string): { session: Record<string, unknown>; messages: Record<string, unknown>[] }[] =>
  [...html.matchAll(/<script type="application\/json" id="session-data-\d+">(.*?)<\/script>/gs)].map((m) =>
    JSON.parse(m[1]!),
  );

beforeAll(() => {
  duckdb = loadReportCorpus('duckdb');
}, 120_000);

describe('etl report', () => {
  it('writes one self-contained page: no network, one script of its own, stored markup only as data', () => {
    const { html, json } = report(duckdb);
    expect(json.report).toMatchObject({ sessions: 18, listed: 18, messages: 57 });
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none';/);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(html.match(/<script/g)).toHaveLength(18 + 1);
    expect(html).not.toContain(HOSTILE_TEXT);
    expect(html).toContain('Escape &lt;b&gt;check&lt;/b&gt; &amp; &lt;/script&gt;');
    const hostile = blocks(html).find((b) => b.session.title === 'Escape <b>check</b> & </script>');
    expect(hostile!.messages[0]!.content).toBe(HOSTILE_TEXT);
    expect(html.match(/<svg class="chart/g)!.length).toBeGreaterThanOrEqual(6);
  });

  it.each(['duckdb', 'parquet'] as const)(
    '%s: shows tokens only with a hint without prices, and cost per model and currency once prices are imported',
    (kind) => {
      const target = loadReportCorpus(kind);
      expect(report(target).html).toContain(
        'No price table: tokens only. Import one with <code>etl prices import FILE</code>',
      );
      const prices = join(tempDir('etl-report-prices-'), 'prices.csv');
      writeFileSync(
        prices,
        'model,valid_from,currency,input_per_million,output_per_million,cache_read_per_million,cache_write_per_million\nclaude-4-sonnet,2020-01-01,USD,3,15,,\n',
      );
      expect(runCli(['prices', 'import', prices, '--target', target]).code).toBe(0);
      const { html } = report(target);
      expect(html).toContain('<h2>Usage per model (tokens and cost)</h2>');
      // 17,328 input tokens at 3/M + 2,143 output tokens at 15/M = 0.084129 USD; gpt-5 and claude-4-opus have no price.
      expect(html).toContain('Cost from v_usage_cost: 0.0841 USD; 10 usage records unpriced.');
      expect(html).toContain('<td>claude-4-sonnet</td><td>measured</td>');
      expect(html).toMatch(/<td>USD<\/td><td class="n">0\.0841<\/td>/);
      expect(html).toMatch(/<td>gpt-5<\/td>.*?<td>unpriced<\/td><td class="n">–<\/td>/);
    },
  );

  it('--max-sessions lists the most recent sessions and says so on the page; the overview counts all', () => {
    const { html, json } = report(duckdb, ['--max-sessions', '3']);
    expect(json.report).toMatchObject({ sessions: 18, listed: 3 });
    expect(blocks(html)).toHaveLength(3);
    expect(html).toContain('hold the 3 most recently updated of 18 sessions (--max-sessions 3)');
    expect(html).toContain('<b>18</b><span>sessions</span>');
  });

  it('refuses to replace a file without --overwrite, and rejects a bad --max-sessions', () => {
    const out = join(tempDir('etl-report-out-'), 'report.html');
    expect(runCli(['report', '--target', duckdb, '--out', out]).code).toBe(0);
    const again = runCli(['report', '--json', '--target', duckdb, '--out', out]);
    expect(again.code).toBe(2);
    expect(JSON.parse(again.stderr).error.code).toBe('EXPORT_OUT_EXISTS');
    expect(runCli(['report', '--target', duckdb, '--out', out, '--overwrite']).code).toBe(0);
    const bad = runCli(['report', '--json', '--target', duckdb, '--out', `${out}2`, '--max-sessions', '0']);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stderr).error.details.reason).toBe('invalid-max-sessions');
  });

  it('reads a Parquet dataset the same way', () => {
    const { html, json } = report(loadReportCorpus('parquet'));
    expect(json.report).toMatchObject({ sessions: 18, listed: 18, messages: 57 });
    expect(blocks(html).map((b) => b.session.title)).toContain('Escape <b>check</b> & </script>');
  });

  it('a redacted warehouse renders what it stores: placeholders, never the secret', () => {
    const { html } = report(loadReportCorpus('duckdb', ['--redact']));
    expect(html).toContain('This warehouse is redacted');
    expect(html).toContain('[REDACTED:');
    expect(html).not.toContain(SECRET_TOKEN);
  });

  it('unknown times are counted in a note, never drawn or listed as 1970', () => {
    const root = tempDir('etl-report-time-');
    const { sources } = buildTimeCorpus(join(root, 'src'), ['"March 8"']);
    const target = `duckdb:${join(root, 'w.duckdb')}`;
    expect(runCli(['run', '--json', ...sources, '--target', target]).code).toBe(0);
    const { html } = report(target);
    expect(html).toMatch(/<p class="note" role="note">[\d,]+ messages have no known time/);
    expect(html).not.toContain('1970');
  });
});
