/**
 * `etl report` in a real headless Chromium (the OS package, driven by playwright-core): the page
 * loads from file:// without console errors, charts draw, search narrows the list, a session opens
 * and stored markup shows as text. Writes the screenshots the README shows (docs/images/).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_TEXT, HOSTILE_TITLE } from '../../../fixtures/report/report-corpus.js';
import { loadReportCorpus } from '../../helpers/report-warehouse.js';
import { runCli, tempDir } from '../../helpers/run-cli.js';

const CHROMIUM = process.env.ETL_TEST_CHROMIUM ?? '/usr/bin/chromium';
const SCREENSHOTS = resolve('docs/images');

let browser: Browser;
let page: Page;
const problems: string[] = [];
/** Why the page could not be opened (Chromium missing, report failed): every test fails with it, none skips. */
let setupFailure: unknown = null;

async function openReport(): Promise<void> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `Chromium is missing at ${CHROMIUM}: install it (Debian/Ubuntu: apt-get install -y chromium; .ci/run does) or set ETL_TEST_CHROMIUM to a Chromium binary`,
    );
  const out = join(tempDir('etl-report-browser-'), 'report.html');
  const run = runCli(['report', '--target', loadReportCorpus('duckdb'), '--out', out]);
  if (run.code !== 0) throw new Error(`etl report failed: ${run.stderr}`);
  browser = await chromium.launch({ executablePath: CHROMIUM });
  page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(String(error)));
  page.on('request', (request) => {
    if (!request.url().startsWith('file:')) problems.push(`network request: ${request.url()}`);
  });
  await page.goto(pathToFileURL(out).href);
  mkdirSync(SCREENSHOTS, { recursive: true });
}

beforeAll(async () => {
  await openReport().catch((error: unknown) => {
    setupFailure = error;
  });
}, 120_000);

function ready(): void {
  if (setupFailure !== null) throw setupFailure;
}

afterAll(async () => {
  await browser?.close();
});

const rows = (p: Page) => p.locator('#session-table tbody tr:visible');

describe('the report in a browser', () => {
  it('loads with no console error and draws every chart with its data', async () => {
    ready();
    await expect.poll(() => page.locator('#view-overview').isVisible()).toBe(true);
    const charts = page.locator('#view-overview svg.chart');
    expect(await charts.count()).toBe(6);
    for (let i = 0; i < 6; i++) {
      const box = await charts.nth(i).boundingBox();
      expect(box!.height).toBeGreaterThan(20);
      const drawn = await charts
        .nth(i)
        .locator('rect.bar')
        .evaluateAll((bars) =>
          bars.filter(
            (b) => Number(b.getAttribute('data-value')) > 0 && b.getBoundingClientRect().height > 0,
          ),
        );
      expect(drawn.length).toBeGreaterThan(0);
    }
    await page.screenshot({ path: join(SCREENSHOTS, 'report-overview.png'), fullPage: true });
    expect(problems).toEqual([]);
  });

  it('typing in the search narrows the sessions list', async () => {
    ready();
    await page.click('nav a[data-view="sessions"]');
    expect(await rows(page).count()).toBe(18);
    await page.fill('#session-search', 'refactor');
    expect(await rows(page).count()).toBe(14);
    await expect.poll(() => page.textContent('#session-count')).toBe('14 of 18 listed sessions');
    await page.selectOption('#workspace-filter', '/home/dev/acme-web');
    expect(await rows(page).count()).toBe(7);
    await page.screenshot({ path: join(SCREENSHOTS, 'report-sessions.png') });
    await page.fill('#session-search', 'MODULE 11');
    expect(await rows(page).count()).toBe(1);
    await page.fill('#session-search', '');
    await page.selectOption('#workspace-filter', '');
    expect(await rows(page).count()).toBe(18);
    expect(problems).toEqual([]);
  });

  it('clicking a session opens its view; stored markup shows as text and never runs', async () => {
    ready();
    await page.goto(`${page.url().split('#')[0]}#sessions`);
    await page.click(`#session-table tbody tr:has-text("${HOSTILE_TITLE.slice(0, 6)}")`);
    await expect.poll(() => page.locator('#view-session').isVisible()).toBe(true);
    expect(page.url()).toMatch(/#session\/\d+$/);
    expect(await page.textContent('#session-view h2')).toBe(HOSTILE_TITLE);
    expect(await page.locator('#session-view .message.user .content').first().textContent()).toBe(
      HOSTILE_TEXT,
    );
    expect(await page.locator('#session-view img').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    await page.click('#session-view details.thinking summary');
    await page.click('#session-view details.tool summary');
    expect(await page.textContent('#session-view details.thinking pre')).toContain('</script><script>');
    expect(await page.textContent('#session-view details.tool .omitted')).toMatch(/^5,015 more characters/);
    await page.screenshot({ path: join(SCREENSHOTS, 'report-session.png'), fullPage: true });
    await page.goBack();
    await expect.poll(() => page.locator('#view-sessions').isVisible()).toBe(true);
    expect(problems).toEqual([]);
  });
});
