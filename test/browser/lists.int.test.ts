/**
 * #27's "lists with identity" in headless Chromium against the one-process system: a list
 * named and tagged on upload (its file's name by default), renamed on its page, its phones
 * found, mobile share and reuse shown; its misses re-run as a new batch that traces them
 * again instead of reusing the misses of minutes ago; and History searched by each filter —
 * address, name, phone, batch, status and dates — through the API's filters.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { launchBrowser } from '@skiptrace/testing/browser';
import type { Browser, Page } from 'playwright-core';
import { signInToConsole, startConsoleSystem, type ConsoleSystem } from './harness.ts';

let sys: ConsoleSystem;
let base: string;
let browser: Browser;
let page: Page;
/** The list uploaded: the demo batch's first 20 rows (two of them at addresses nobody lives at). */
let rows: string[][];
let listFile: string;

beforeAll(async () => {
  sys = await startConsoleSystem('lists', { SKIPTRACE_DEMO_ROWS: '300' });
  base = sys.base;
  const lines = (await readFile(join(sys.dataDir, 'demo-batch.csv'), 'utf8')).trim().split(/\r?\n/).slice(0, 21);
  rows = lines.slice(1).map((l) => l.split(','));
  listFile = join(sys.dataDir, 'austin-absentee.csv');
  await writeFile(listFile, `${lines.join('\n')}\n`);
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  page = await context.newPage();
  await page.goto(`${base}/console/`);
  await signInToConsole(page, base, sys.demo.email, sys.demo.password);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await sys?.stop();
});

/** The value of a stat on the batch page. */
const stat = (label: string) => page.locator('.stat', { has: page.locator('dt', { hasText: label }) }).locator('dd');
const completed = () =>
  page.locator('.page-header .badge.status, header .badge.status').filter({ hasText: 'completed' });

/** History's rows for a search: the form filled as given, the addresses shown. */
async function searchHistory(fields: Record<string, string>): Promise<string[]> {
  const listed = (r: { url(): string; status(): number }) =>
    r.url().includes('/api/v1/property/skiptrace?') && r.status() === 200;
  const initial = page.waitForResponse(listed);
  await page.goto(`${base}/console/history`);
  await initial;
  const form = page.getByRole('search', { name: 'Search history' });
  for (const [label, value] of Object.entries(fields)) {
    const field = form.locator(`[name="${label.toLowerCase()}"]`);
    if ((await field.evaluate((el) => el.tagName)) === 'SELECT') await field.selectOption(value);
    else await field.fill(value);
  }
  const answered = page.waitForResponse(listed);
  await form.getByRole('button', { name: 'Search' }).click();
  await answered;
  await page.waitForTimeout(200);
  const empty = await page.getByText('Nothing matches this search.').isVisible();
  if (empty) return [];
  return page.locator('table tbody tr:not(.detail-row) td:nth-child(2)').allTextContents();
}

describe('lists with identity', () => {
  let firstId: string;
  let missesId: string;

  it('names and tags a list on upload (the file name by default), shows its counts and renames it', async () => {
    await page.goto(`${base}/console/batches`);
    await page.getByLabel('CSV file').setInputFiles(listFile);
    await page.getByTestId('preview-facts').waitFor();
    const name = page.getByLabel('Name', { exact: true });
    await expect(name.inputValue()).resolves.toBe('austin-absentee.csv');
    await name.fill('Austin absentee');
    await page.getByLabel(/^Tags/).fill('austin, q1');
    await page.getByRole('button', { name: 'Start batch' }).click();
    await page.waitForURL(/\/console\/batches\/\d+$/);
    firstId = /(\d+)$/.exec(page.url())![1]!;
    await completed().waitFor({ timeout: 60_000 });
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Austin absentee');
    await expect(page.getByText('q1', { exact: true }).first().isVisible()).resolves.toBe(true);
    expect(Number((await stat('Phones found').textContent())!.replace(/,/g, ''))).toBeGreaterThan(0);
    await expect(stat('Mobile share').textContent()).resolves.toMatch(/^\d+\.\d %$/);
    await expect(stat('Reused').textContent()).resolves.toMatch(/^\d+$/);

    const card = page.getByRole('region', { name: 'List' });
    await card.getByLabel('Name', { exact: true }).fill('Austin absentee Q1');
    await card.getByRole('button', { name: 'Save name and tags' }).click();
    await page.getByRole('heading', { level: 1, name: 'Austin absentee Q1' }).waitFor();
  });

  it('re-runs the misses as a new batch that traces them again', async () => {
    const misses = rows.filter((r) => r[0]!.includes('Nowhere')).length;
    expect(misses).toBe(2);
    await page.getByRole('button', { name: `Re-run misses (${misses})` }).click();
    await page.waitForURL(
      (url) => /\/console\/batches\/\d+$/.test(url.pathname) && !url.pathname.endsWith(`/${firstId}`),
    );
    missesId = /(\d+)$/.exec(page.url())![1]!;
    await completed().waitFor({ timeout: 60_000 });
    await page.getByRole('heading', { level: 1, name: 'Austin absentee Q1 (misses)' }).waitFor();
    await expect(stat('Rows').textContent()).resolves.toBe(`${misses} / ${misses}`);
    // Traced again: not one row answered from the misses of a minute ago.
    await expect(stat('Reused').textContent()).resolves.toBe('0');
    await expect(page.getByRole('link', { name: `batch ${firstId}` }).isVisible()).resolves.toBe(true);

    await page.goto(`${base}/console/batches`);
    const table = page.locator('table').last();
    await table.getByRole('link', { name: 'Austin absentee Q1 (misses)' }).waitFor();
    await expect(table.getByRole('link', { name: 'Austin absentee Q1', exact: true }).isVisible()).resolves.toBe(true);
    for (const heading of ['Phones found', 'Mobile share', 'Reused', 'Rejected', 'Duration']) {
      await expect(table.getByRole('columnheader', { name: heading }).count()).resolves.toBe(1);
    }
  });

  it('searches History by address, name, phone, batch, status and dates', async () => {
    const [street, city, state, zip, , last] = rows[0]!;
    const all = await searchHistory({});
    expect(all).toHaveLength(20);
    // Address words in any spelling USPS reads the same; each entry shows its standardised form.
    const byAddress = await searchHistory({ Address: `${street!.toLowerCase()} ${zip}` });
    expect(byAddress.length).toBeGreaterThanOrEqual(1);
    expect(byAddress.every((a) => a.startsWith(`${street}, ${city}, ${state} ${zip}`))).toBe(true);

    const byName = await searchHistory({ Name: last! });
    expect(byName.length).toBeGreaterThanOrEqual(1);
    expect(byName.some((a) => a.startsWith(street!))).toBe(true);

    // A phone of a matched row, from its details, typed as people write it.
    const matched = await searchHistory({ Status: 'completed' });
    expect(matched.length).toBeGreaterThanOrEqual(10);
    await page
      .getByRole('button', { name: /^Details of property/ })
      .first()
      .click();
    const tel = (await page.locator('a[href^="tel:"]').first().getAttribute('href'))!.slice(4);
    const byPhone = await searchHistory({ Phone: tel.replace(/^\+1(\d{3})(\d{3})(\d{4})$/, '($1) $2-$3') });
    expect(byPhone).toContain(matched[0]);

    const byBatch = await searchHistory({ Batch: missesId });
    expect(byBatch).toHaveLength(2);
    expect(byBatch.every((a) => a.includes('Nowhere Ridge Rd'))).toBe(true);

    const noMatch = await searchHistory({ Status: 'no_match' });
    expect(noMatch.length).toBeGreaterThanOrEqual(4);
    expect(noMatch.filter((a) => a.includes('Nowhere')).length).toBe(4);

    const today = new Date().toISOString().slice(0, 10);
    expect(await searchHistory({ From: today, To: today })).toHaveLength(20);
    expect(await searchHistory({ To: '2020-01-01' })).toEqual([]);
  });
});
