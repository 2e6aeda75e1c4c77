/**
 * The console on a phone and on a desktop (#27 item 4), in headless Chromium against the
 * one-process system: with data on every page (a batch with a rejected row, a trace result,
 * a webhook endpoint with a delivery, an API client, an invited member, audit entries,
 * usage), each page at 390×844 and at 360×800 has no horizontal overflow (the document no
 * wider than the window, and no element past its right edge), the navigation is behind an
 * accessible Menu button, phones are `tel:` links that never wrap, and each page is
 * photographed at 390×844 and 1440×900, as is the auth server's sign-in page.
 *
 * Screenshots go to packages/console/screenshots/responsive/ (gitignored); with
 * SKIPTRACE_SCREENSHOTS=docs they replace the ones docs/console.md shows, in docs/screenshots/
 * (viewport only, to keep the PNGs small):
 *   SKIPTRACE_SCREENSHOTS=docs ./run jest test/browser/responsive.int.test.ts --selectProjects integration
 */
import type { Server } from 'node:http';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { demoQueryFor, generateContacts } from '@skiptrace/demo';
import { clientCredentialsToken, demoClient, waitUntil } from '@skiptrace/testing';
import { launchBrowser } from '@skiptrace/testing/browser';
import type { Browser, Page } from 'playwright-core';
import { loopbackReceiver, signInToConsole, startConsoleSystem, type ConsoleSystem } from './harness.ts';

const here = dirname(fileURLToPath(import.meta.url));
const FOR_DOCS = process.env.SKIPTRACE_SCREENSHOTS === 'docs';
const SHOTS = FOR_DOCS
  ? join(here, '..', '..', 'docs', 'screenshots')
  : join(here, '..', '..', 'packages', 'console', 'screenshots', 'responsive');

const PHONE = { width: 390, height: 844 };
const SMALL_PHONE = { width: 360, height: 800 };
const DESKTOP = { width: 1440, height: 900 };

let running: ConsoleSystem;
let base: string;
let browser: Browser;
let page: Page;
let batchId: string;
/** The batch's file, uploaded again in the console to show the mapping step. */
let listFile: string;
let receiver: Server;

/** The console's pages as the navigation names them, with what shows once a page has its data. */
const PAGES: { name: string; shot: string; path: () => string; ready: (p: Page) => Promise<unknown> }[] = [
  {
    name: 'Batches',
    shot: 'batches',
    path: () => '/batches',
    ready: (p) => p.getByRole('cell', { name: /%$/ }).first().waitFor(),
  },
  {
    name: 'Batch',
    shot: 'batch',
    path: () => `/batches/${batchId}`,
    ready: (p) => p.locator('.badge.status', { hasText: 'completed' }).waitFor(),
  },
  {
    name: 'History',
    shot: 'history',
    path: () => '/history',
    ready: async (p) => {
      await p
        .getByRole('button', { name: /^Details of property/ })
        .first()
        .click();
      await p.getByRole('article').first().waitFor();
    },
  },
  {
    name: 'Webhooks',
    shot: 'webhooks',
    path: () => '/webhooks',
    ready: (p) => p.getByRole('cell', { name: 'webhook.test' }).first().waitFor({ timeout: 20_000 }),
  },
  {
    name: 'API clients',
    shot: 'clients',
    path: () => '/clients',
    ready: (p) => p.locator('td', { hasText: /^nightly export$/ }).waitFor(),
  },
  {
    name: 'Members',
    shot: 'members',
    path: () => '/members',
    ready: (p) => p.locator('td', { hasText: /^dana@team\.test/ }).waitFor(),
  },
  {
    name: 'Audit log',
    shot: 'audit',
    path: () => '/audit',
    ready: (p) => p.getByRole('cell', { name: 'member.invited' }).first().waitFor(),
  },
  {
    name: 'Usage',
    shot: 'usage',
    path: () => '/usage',
    ready: (p) => p.getByRole('table', { name: 'Usage per API client' }).waitFor(),
  },
];

/**
 * Scripts run in the page (as source text: this package's type check has no DOM types), each
 * an expression whose value (or promise) comes back.
 */
const IN_PAGE = {
  /**
   * The document's scroll width, and the elements past the window's right edge that no ancestor
   * clips or scrolls (an ellipsis; the file preview's own scroller — tables of the console's
   * lists are cards on a phone, their scroller visible).
   */
  overflow: `(() => {
    const width = innerWidth;
    const wide = [];
    for (const el of document.body.querySelectorAll('*')) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.right <= width + 0.5) continue;
      let clipped = false;
      for (let a = el.parentElement; a && a !== document.body && !clipped; a = a.parentElement)
        clipped = getComputedStyle(a).overflowX !== 'visible';
      if (!clipped) {
        const name = el.tagName.toLowerCase() + (typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
        wide.push(name + ' (' + Math.round(box.left) + '–' + Math.round(box.right) + ' px): ' + (el.textContent || '').trim().slice(0, 60));
      }
    }
    return { scrollWidth: document.documentElement.scrollWidth, width, wide: wide.slice(0, 10) };
  })()`,
  /** Resolves after two frames: a resize has been laid out and ResizeObservers have run. */
  twoFrames: 'new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))',
  /** The tel: links in the page with their text, white-space and how many lines they take. */
  phoneLinks: `Array.from(document.querySelectorAll('main a[href^="tel:"]'), (a) => ({
    href: a.getAttribute('href'),
    text: a.textContent,
    whiteSpace: getComputedStyle(a).whiteSpace,
    lines: a.getClientRects().length,
  }))`,
  /** Text that looks like a formatted phone number outside a tel: link. */
  loosePhones: `(() => {
    const out = [];
    const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode())
      if (/\\(\\d{3}\\) \\d{3}-\\d{4}/.test(n.textContent || '') && !n.parentElement.closest('a[href^="tel:"]')) out.push(n.textContent);
    return out;
  })()`,
  /** Each DataTable in the page: its display, its header row's height and how many cells carry a label. */
  cards: `Array.from(document.querySelectorAll('main table.cards'), (t) => ({
    display: getComputedStyle(t).display,
    header: t.querySelector('thead').getBoundingClientRect().height,
    labelled: t.querySelectorAll('td[data-label]').length,
  }))`,
};
const inPage = <T>(p: Page, script: string) => p.evaluate(script) as Promise<T>;

async function shot(name: string, width: number): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: !FOR_DOCS });
}

/**
 * What sticks out at the window's width: the document's scroll width, and the elements whose
 * right edge passes the window (outside an ancestor that clips them, e.g. an ellipsis).
 */
function overflow(p: Page) {
  return inPage<{ scrollWidth: number; width: number; wide: string[] }>(p, IN_PAGE.overflow);
}

async function expectNoOverflow(p: Page, where: string): Promise<void> {
  // After a resize, let the charts follow their containers (ResizeObserver) first.
  await inPage(p, IN_PAGE.twoFrames);
  const seen = await overflow(p);
  expect({ where, ...seen, wide: seen.wide }).toEqual({ where, scrollWidth: seen.width, width: seen.width, wide: [] });
}

/** Batches: a file chosen shows its preview and the column mapping, which fit a phone too. */
async function mapping(): Promise<void> {
  await page.setViewportSize(PHONE);
  await page.getByLabel('CSV file').setInputFiles(listFile);
  await page.getByRole('button', { name: 'Start batch' }).waitFor();
  for (const size of [PHONE, SMALL_PHONE]) {
    await page.setViewportSize(size);
    await expectNoOverflow(page, `Batches with a file chosen at ${size.width} px`);
  }
  await page.setViewportSize(PHONE);
  await page.getByRole('button', { name: 'Start batch' }).scrollIntoViewIfNeeded();
  await shot('batch-mapping', PHONE.width);
  await page.setViewportSize(DESKTOP);
  await shot('batch-mapping', DESKTOP.width);
  // Leave the page as it was: the list of batches without a file chosen.
  await page.reload();
  await page.getByRole('cell', { name: /%$/ }).first().waitFor();
}

/** Opens a page from the navigation: on a narrow window through the Menu button. */
async function open(name: string, narrow: boolean): Promise<void> {
  if (narrow) {
    const menu = page.getByRole('button', { name: 'Menu' });
    await expect(menu.getAttribute('aria-expanded')).resolves.toBe('false');
    // Closed, the navigation takes no room: its links are hidden.
    await expect(page.getByRole('navigation', { name: 'Console' }).isVisible()).resolves.toBe(false);
    await menu.click();
    await expect(menu.getAttribute('aria-expanded')).resolves.toBe('true');
  }
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true }).click();
  if (narrow)
    await expect(page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded')).resolves.toBe('false');
}

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  running = await startConsoleSystem('responsive', { SKIPTRACE_DEMO_ROWS: '300' });
  base = running.base;
  const hooks = await loopbackReceiver();
  receiver = hooks.server;

  // Data on every page, through the API as the demo client (an admin of the demo account).
  const token = await clientCredentialsToken(base, await demoClient(running.dataDir), 'read write admin');
  const api = async (method: string, path: string, body?: unknown, type = 'application/json') => {
    const res = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': type }) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const contacts = [...generateContacts({ rows: 300, seed: 42 })].filter((_, i) => i % 15 === 0);
  const csv = ['Property Address,City,ST,Zip,Owner First Name,Owner Last Name'];
  for (const c of contacts) {
    const q = demoQueryFor(c);
    csv.push([q.street_address, q.city, q.state, q.zip_code, q.first_name, q.last_name].map((v) => `"${v}"`).join(','));
  }
  csv.push(',Nowhere,TX,,No,Street'); // rejected: no street, no ZIP code
  listFile = join(running.dataDir, 'list.csv');
  await writeFile(listFile, `${csv.join('\n')}\n`);
  const batch = await api('POST', '/property/skiptrace/batches', `${csv.join('\n')}\n`, 'text/csv');
  batchId = String(batch.id);
  await waitUntil(async () => (await api('GET', `/property/skiptrace/batches/${batchId}`)).status === 'completed', {
    timeoutMs: 30_000,
    intervalMs: 250,
  });
  await api('POST', '/property/skiptrace', demoQueryFor(contacts[0]!));
  const endpoint = await api('POST', '/webhooks/endpoints', {
    url: hooks.url('/hooks/a-long-path-that-must-wrap-on-a-phone'),
    description: 'CRM sync',
  });
  await api('POST', `/webhooks/endpoints/${String(endpoint.id)}/test`);
  await api('POST', '/clients', { name: 'nightly export', scopes: ['read', 'write'] });
  await api('POST', '/members', { email: 'dana@team.test', role: 'member' });

  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
}, 120_000);

afterAll(async () => {
  receiver?.close();
  await browser?.close();
  await running?.stop();
});

describe('the console on a phone and on a desktop', () => {
  it('fits the sign-in page in 360 and 390 px', async () => {
    await page.goto(`${base}/console/`);
    await page.getByLabel('Password').waitFor();
    for (const size of [SMALL_PHONE, PHONE]) {
      await page.setViewportSize(size);
      await expectNoOverflow(page, `sign-in at ${size.width} px`);
    }
    await shot('sign-in', PHONE.width);
    await page.setViewportSize(DESKTOP);
    await shot('sign-in', DESKTOP.width);
  }, 30_000);

  it('signs in and collapses the navigation behind a Menu button on a phone', async () => {
    await page.goto(`${base}/console/`);
    await signInToConsole(page, base, running.demo.email, running.demo.password);
    // Wide: the navigation is always there and there is no Menu button.
    await expect(page.getByRole('navigation', { name: 'Console' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Menu' }).isVisible()).resolves.toBe(false);
    await page.setViewportSize(PHONE);
    const menu = page.getByRole('button', { name: 'Menu' });
    await expect(menu.isVisible()).resolves.toBe(true);
    await expect(menu.getAttribute('aria-controls')).resolves.toBe('console-menu');
    await expect(page.getByRole('navigation', { name: 'Console' }).isVisible()).resolves.toBe(false);
    // The bar above the page is one row, not the whole navigation.
    const bar = await page.locator('.sidebar').boundingBox();
    expect(bar!.height).toBeLessThan(80);
    await menu.click();
    await expect(page.getByRole('navigation', { name: 'Console' }).isVisible()).resolves.toBe(true);
    await expectNoOverflow(page, 'menu open at 390 px');
    await shot('menu', PHONE.width);
    // Escape from a link in the menu closes it and gives the focus back to the button.
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link').first().press('Escape');
    await expect(menu.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(
      menu.evaluate((el) => (el as unknown as { matches(s: string): boolean }).matches(':focus')),
    ).resolves.toBe(true);
  }, 30_000);

  it('traces one property: phones are tel: links that never wrap, and nothing overflows', async () => {
    const q = demoQueryFor([...generateContacts({ rows: 300, seed: 42 })][0]!);
    await page.setViewportSize(PHONE);
    await open('Trace one property', true);
    await page.getByLabel('Street address', { exact: true }).fill(q.street_address);
    await page.getByLabel('City', { exact: true }).fill(q.city);
    await page.getByLabel('State', { exact: true }).fill(q.state);
    await page.getByLabel('ZIP code', { exact: true }).fill(q.zip_code);
    await page.getByLabel('Last name (optional)').fill(q.last_name);
    await page.getByRole('button', { name: 'Trace', exact: true }).click();
    const person = page.getByRole('article').first();
    await person.waitFor();
    for (const size of [PHONE, SMALL_PHONE]) {
      await page.setViewportSize(size);
      await expectNoOverflow(page, `Trace one property at ${size.width} px`);
      const phones = await inPage<{ href: string; text: string; whiteSpace: string; lines: number }[]>(
        page,
        IN_PAGE.phoneLinks,
      );
      expect(phones.length).toBeGreaterThan(0);
      for (const p of phones) {
        expect(p.href).toMatch(/^tel:\+1\d{10}$/);
        expect(p.text).toMatch(/^\(\d{3}\) \d{3}-\d{4}$/);
        expect(p.whiteSpace).toBe('nowrap');
        expect(p.lines).toBe(1);
      }
      // Every phone number shown on the page is one of those links.
      const loose = await inPage<string[]>(page, IN_PAGE.loosePhones);
      expect(loose).toEqual([]);
    }
    await page.setViewportSize(PHONE);
    await person.scrollIntoViewIfNeeded();
    await shot('trace', PHONE.width);
    await page.setViewportSize(DESKTOP);
    await shot('trace', DESKTOP.width);
  }, 40_000);

  for (const { name, shot: file, path, ready } of PAGES) {
    it(`${name}: fits 360 and 390 px (tables as cards), photographed at 390 and 1440 px`, async () => {
      await page.setViewportSize(PHONE);
      if (name === 'Batch') {
        await open('Batches', true);
        await page.locator(`main a[href$="/batches/${batchId}"]`).first().click();
        await page.waitForURL(`${base}/console${path()}`);
      } else await open(name, true);
      await ready(page);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      for (const size of [PHONE, SMALL_PHONE]) {
        await page.setViewportSize(size);
        await expectNoOverflow(page, `${name} at ${size.width} px`);
      }
      // Rows are cards: each value under its column's heading (data-label), no header row shown.
      const cards = await inPage<{ display: string; header: number; labelled: number }[]>(page, IN_PAGE.cards);
      expect(cards.length).toBeGreaterThan(0);
      for (const c of cards)
        expect(c).toEqual({ display: 'block', header: expect.any(Number), labelled: expect.any(Number) });
      expect(cards.some((c) => c.labelled > 0 && c.header <= 1)).toBe(true);
      await page.setViewportSize(PHONE);
      await shot(file, PHONE.width);
      await page.setViewportSize(DESKTOP);
      await expect(inPage(page, 'document.documentElement.scrollWidth <= innerWidth')).resolves.toBe(true);
      await shot(file, DESKTOP.width);
      if (name === 'Batches') await mapping();
    }, 40_000);
  }
});
