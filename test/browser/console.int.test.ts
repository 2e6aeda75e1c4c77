/**
 * The web console in headless Chromium against the one-process system (embedded adapters):
 * sign in as the demo user through the auth server's login page, upload a CSV whose street
 * column has a name the server does not recognise and map it, watch progress reach 100 %,
 * download the results and read them, trace one property, and check every page with
 * axe-core. Screenshots of each page go to packages/console/screenshots/ (gitignored).
 */
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { demoQueryFor, demoSuppressionOf, generateContacts } from '@skiptrace/demo';
import { normalizePhone } from '@skiptrace/matching';
import { createSystem, type System } from '@skiptrace/standalone';
import { CONSOLE_DIST_DIR } from '@skiptrace/console';
import { freePort } from '@skiptrace/testing';
import { launchBrowser, signIn } from '@skiptrace/testing/browser';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const SHOTS = join(here, '..', '..', 'packages', 'console', 'screenshots');
const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let system: System;
let base: string;
let dataDir: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let demo: { email: string; password: string };
const DEMO_ROWS = 600;
/** A webhook receiver on loopback that answers 204 and counts what it got. */
let receiver: Server;
let received = 0;

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** axe-core in the page (evaluated over the DevTools protocol, so the console's CSP stays on). */
async function seriousViolations(): Promise<string[]> {
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    return axe.run();
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: { target: string[] }[];
}

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  dataDir = await mkdtemp(join(tmpdir(), 'skiptrace-console-'));
  const port = await freePort();
  system = await createSystem({
    PORT: String(port),
    SKIPTRACE_DATA_DIR: dataDir,
    // Enough that a demo contact has a phone on the demo litigator list (1 number in 100).
    SKIPTRACE_DEMO_ROWS: String(DEMO_ROWS),
    // One person per answer: an address-only trace of a household then shows the cap notice.
    TRACE_MAX_PEOPLE: '1',
    LOG_LEVEL: 'silent',
  });
  base = await system.start();
  demo = JSON.parse(await readFile(join(dataDir, 'demo-credentials.json'), 'utf8'));
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1360, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
}, 90_000);

afterAll(async () => {
  receiver?.close();
  await browser?.close();
  await system?.stop('test done');
  await rm(dataDir, { recursive: true, force: true });
});

describe('web console', () => {
  it("bundles React's production build even when built under Jest (NODE_ENV=test)", async () => {
    const assets = join(CONSOLE_DIST_DIR, 'assets');
    const scripts = (await readdir(assets)).filter((f) => f.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const file of scripts) {
      // A development-only warning of React: absent from its production build.
      expect(await readFile(join(assets, file), 'utf8')).not.toContain('Each child in a list should have a unique');
    }
  });

  it('signs the demo user in through the login page and lands on Batches, with no consent page (first party)', async () => {
    const pages: string[] = [];
    const record = (frame: Frame) => {
      if (frame === page.mainFrame()) pages.push(new URL(frame.url()).pathname);
    };
    page.on('framenavigated', record);
    await page.goto(`${base}/console/`);
    await signIn(page, demo.email, demo.password);
    await page.waitForURL(`${base}/console/batches`);
    page.off('framenavigated', record);
    // The login page is the only page of the auth server the user saw: no consent in between.
    await expect(page.getByRole('button', { name: 'Allow' }).count()).resolves.toBe(0);
    expect(pages.filter((path) => path.startsWith('/interaction/'))).toHaveLength(1);
    await expect(page.getByRole('heading', { level: 1, name: 'Batches' }).isVisible()).resolves.toBe(true);
    await shot('batches');
    expect(await seriousViolations()).toEqual([]);
  });

  it('uploads a CSV, maps a renamed column, shows progress to 100 % and downloads the rows', async () => {
    const contacts = [...generateContacts({ rows: 300, seed: 42 })].filter((_, i) => i % 10 === 0);
    const lines = ['Location,Town,ST,Zip,Owner First Name,Owner Last Name'];
    for (const c of contacts) {
      const q = demoQueryFor(c);
      lines.push(
        [q.street_address, q.city, q.state, q.zip_code, q.first_name, q.last_name].map((v) => `"${v}"`).join(','),
      );
    }
    const file = join(dataDir, 'upload.csv');
    await writeFile(file, `${lines.join('\n')}\n`);

    await page.getByLabel('CSV file').setInputFiles(file);
    // "Town" is a known alias of city; "Location" is not, so the street needs mapping by hand.
    // A select's label reads with its options: matched by its start ("City", not "Mailing city").
    await expect(page.getByLabel(/^City/).inputValue()).resolves.toBe('Town');
    await expect(page.getByLabel(/^Street address/).inputValue()).resolves.toBe('');
    await expect(page.getByRole('button', { name: 'Start batch' }).isDisabled()).resolves.toBe(true);
    await page.getByLabel(/^Street address/).selectOption('Location');
    await shot('batch-mapping');
    expect(await seriousViolations()).toEqual([]);
    await page.getByRole('button', { name: 'Start batch' }).click();

    await page.waitForURL(/\/console\/batches\/\d+$/);
    const progress = page.getByRole('progressbar');
    await progress.and(page.locator('[aria-valuenow="100"]')).waitFor({ timeout: 30_000 });
    await page.locator('.badge.status', { hasText: 'completed' }).waitFor();
    await shot('batch-progress');
    expect(await seriousViolations()).toEqual([]);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download results (CSV)' }).click(),
    ]);
    const csv = await readFile((await download.path())!, 'utf8');
    // Cells in quotes may hold commas (a current address: "9 Elm St, Dallas, TX 75201").
    const cellsOf = (line: string) => [...line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map((m) => m[1]!);
    const [header, ...rows] = csv.trim().split('\n');
    const columns = cellsOf(header!);
    expect(columns.slice(0, 6)).toEqual(['Location', 'Town', 'ST', 'Zip', 'Owner First Name', 'Owner Last Name']);
    expect(rows).toHaveLength(contacts.length);
    const status = columns.indexOf('status');
    const phone = columns.indexOf('phone_1');
    const completed = rows.map(cellsOf).filter((r) => r[status] === 'completed');
    expect(completed.length).toBeGreaterThan(contacts.length * 0.8);
    expect(completed[0]![phone]).toMatch(/^\+1\d{3}55501\d\d$/);
    // No roll is loaded: the name on each row makes its owner, who lives there.
    expect(completed[0]![columns.indexOf('phone_1_owner')]).toBe('true');
    expect(completed[0]![columns.indexOf('phone_1_resident')]).toBe('true');

    await page.getByRole('link', { name: 'All batches' }).click();
    await page.getByRole('cell', { name: /%$/ }).first().waitFor();
    await shot('batches-list');
  }, 60_000);

  it('traces one property and shows each person with confidence, reasons, owner and resident, phone dates and flags', async () => {
    const q = demoQueryFor([...generateContacts({ rows: 1, seed: 42 })][0]!);
    await page.getByRole('link', { name: 'Trace one property' }).click();
    // Keyboard only: type into each field, Tab to the next (past the optional mailing
    // address and parcel number), Enter submits.
    await page.getByLabel('Street address', { exact: true }).focus();
    for (const value of [q.street_address, q.city, q.state, q.zip_code, q.first_name, q.last_name]) {
      await page.keyboard.type(value);
      await page.keyboard.press('Tab');
    }
    for (let optional = 0; optional < 5; optional++) await page.keyboard.press('Tab');
    await expect(page.getByLabel('ZIP code', { exact: true }).inputValue()).resolves.toBe(q.zip_code);
    const traceButton = page.getByRole('button', { name: 'Trace', exact: true });
    await expect(
      traceButton.evaluate((el) => (el as unknown as { matches(s: string): boolean }).matches(':focus')),
    ).resolves.toBe(true);
    await page.keyboard.press('Enter');
    const person = page.getByRole('article').first();
    await person.waitFor();
    await expect(person.getByRole('meter', { name: 'Confidence' }).isVisible()).resolves.toBe(true);
    await expect(person.getByRole('list', { name: 'Reasons' }).isVisible()).resolves.toBe(true);
    // No roll is loaded: the name given makes the owner, found at the property where they live.
    await expect(person.locator('.badge.role').allInnerTexts()).resolves.toEqual(['Owner', 'Resident']);
    await expect(person.getByText(/^Current address:/).isVisible()).resolves.toBe(true);
    await expect(person.getByRole('list', { name: /^Address history of / }).isVisible()).resolves.toBe(true);
    const phoneTable = person.getByRole('table');
    await expect(phoneTable.getByRole('columnheader').allInnerTexts()).resolves.toEqual([
      'Phone',
      'Type',
      'Seen',
      'DNC',
      'Litigator',
    ]);
    await shot('trace');
    expect(await seriousViolations()).toEqual([]);
  }, 30_000);

  it.each([
    ['dnc', 'DNC'],
    ['litigator', 'litigator'],
  ] as const)(
    'shows a demo phone on the demo %s list with its flag',
    async (kind, badge) => {
      const row = [...generateContacts({ rows: DEMO_ROWS, seed: 42 })].find((c) =>
        [c.phone_1, c.phone_2].some((p) => p !== null && demoSuppressionOf(normalizePhone(p)!) === kind),
      )!;
      const q = demoQueryFor(row);
      const fields = [
        ['Street address', q.street_address],
        ['City', q.city],
        ['State', q.state],
        ['ZIP code', q.zip_code],
        ['First name (optional)', q.first_name],
        ['Last name (optional)', q.last_name],
      ] as const;
      await page.getByRole('button', { name: 'Clear' }).click();
      for (const [label, value] of fields) await page.getByLabel(label, { exact: true }).fill(value ?? '');
      await page.getByRole('button', { name: 'Trace', exact: true }).click();
      const person = page.getByRole('article').filter({ hasText: row.first_name }).first();
      await person.waitFor();
      await person
        .locator('td .badge', { hasText: new RegExp(`^${badge}$`) })
        .first()
        .waitFor();
    },
    30_000,
  );

  it("takes the owner's mailing address (whole or not at all) and the parcel number, and shows the address used", async () => {
    const q = demoQueryFor([...generateContacts({ rows: 1, seed: 42 })][0]!);
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByLabel('Street address', { exact: true }).fill(q.street_address);
    await page.getByLabel('City', { exact: true }).fill(q.city);
    await page.getByLabel('State', { exact: true }).fill(q.state);
    await page.getByLabel('ZIP code', { exact: true }).fill(q.zip_code);
    await page.getByLabel('Last name (optional)').fill(q.last_name);
    // One part of the mailing address asks for the others.
    await page.getByLabel('Mailing city').fill('Dallas');
    await expect(page.getByLabel('Mailing street address').getAttribute('required')).resolves.not.toBeNull();
    await page.getByLabel('Mailing street address').fill('PO Box 12');
    await page.getByLabel('Mailing state').fill('TX');
    await page.getByLabel('Mailing ZIP code').fill('75201');
    await page.getByLabel('Parcel number (APN) (optional)').fill('0123-45');
    await page.getByRole('button', { name: 'Trace', exact: true }).click();
    const facts = page.getByRole('region', { name: 'Ownership' });
    await facts.waitFor();
    await expect(facts.innerText()).resolves.toContain('Mailing address used: PO Box 12, Dallas, TX 75201');
    await expect(page.getByText(/· APN 0123-45 ·/).isVisible()).resolves.toBe(true);
    await shot('trace-mailing');
    expect(await seriousViolations()).toEqual([]);
  }, 30_000);

  it('says so when more people match at an address than the cap returns', async () => {
    const rows = [...generateContacts({ rows: 300, seed: 42 })];
    const key = (r: (typeof rows)[number]) => `${r.street_address}|${r.zip_code}`;
    const counts = new Map<string, number>();
    for (const r of rows) counts.set(key(r), (counts.get(key(r)) ?? 0) + 1);
    const home = rows.find((r) => counts.get(key(r))! >= 2)!;
    await page.getByRole('link', { name: 'Trace one property' }).click();
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByLabel('Street address', { exact: true }).fill(home.street_address);
    await page.getByLabel('City', { exact: true }).fill(home.city);
    await page.getByLabel('State', { exact: true }).fill(home.state);
    await page.getByLabel('ZIP code', { exact: true }).fill(home.zip_code);
    await page.getByRole('button', { name: 'Trace', exact: true }).click();
    const notice = page.getByRole('note', { name: 'Not everyone shown' });
    await notice.waitFor();
    await expect(notice.innerText()).resolves.toMatch(/^\d+ people match at this address; the best 1 are shown/);
    await expect(page.getByRole('article').count()).resolves.toBe(1);
    expect(await seriousViolations()).toEqual([]);
  }, 30_000);

  it('lists the results newest first and erases one', async () => {
    await page.getByRole('link', { name: 'History' }).click();
    const details = page.getByRole('button', { name: /^Details of property/ }).first();
    await details.waitFor();
    const label = (await details.getAttribute('aria-label'))!;
    const id = label.replace('Details of property ', '');
    await details.click();
    await page.getByRole('article').first().waitFor();
    await shot('history');
    expect(await seriousViolations()).toEqual([]);
    await page.getByRole('button', { name: `Erase property ${id}` }).click();
    await page.getByRole('button', { name: 'Erase for good' }).click();
    await page.getByRole('button', { name: label }).waitFor({ state: 'detached' });
    // Fetched again from the API, the list no longer has it.
    await page.getByRole('link', { name: 'Batches' }).click();
    await page.getByRole('link', { name: 'History' }).click();
    await page
      .getByRole('button', { name: /^Details of property/ })
      .first()
      .waitFor();
    await expect(page.getByRole('button', { name: label }).count()).resolves.toBe(0);
  }, 30_000);

  it('creates a webhook endpoint, shows its secret once and a delivery with status and latency', async () => {
    const { port } = receiver.address() as AddressInfo;
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('Endpoint URL').fill(`http://127.0.0.1:${port}/hooks`);
    await page.getByLabel('Description').fill('CRM sync');
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    await expect(page.getByLabel('Signing secret').inputValue()).resolves.toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Send test event' }).click();
    const log = page.getByRole('table', { name: /^Deliveries to/ });
    const row = log.getByRole('row').filter({ hasText: 'webhook.test' });
    await row.filter({ hasText: 'delivered' }).waitFor({ timeout: 20_000 });
    expect(received).toBeGreaterThan(0);
    await expect(row.getByRole('cell').nth(4).innerText()).resolves.toBe('204');
    await expect(row.getByRole('cell').nth(5).innerText()).resolves.toMatch(/^\d+ ms$/);
    await row.getByRole('button', { name: /^Attempts of delivery/ }).click();
    await page.getByRole('table', { name: /^Attempts of delivery/ }).waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    await shot('webhooks');
    expect(await seriousViolations()).toEqual([]);
  }, 40_000);

  it('creates an API client with the scopes a trace needs by default, whose token traces at once; then revokes it', async () => {
    await page.getByRole('link', { name: 'API clients' }).click();
    await page.getByLabel('Client name').fill('nightly export');
    // Chosen explicitly on the form, read and write ticked to start with: the first trace is no 403.
    await expect(page.getByRole('checkbox', { name: /^read/ }).isChecked()).resolves.toBe(true);
    await expect(page.getByRole('checkbox', { name: /^write/ }).isChecked()).resolves.toBe(true);
    await expect(page.getByRole('checkbox', { name: /^admin/ }).isChecked()).resolves.toBe(false);
    await page.getByRole('checkbox', { name: /^write/ }).uncheck();
    await page.getByText('Without write this client cannot trace a property or upload a list.').waitFor();
    await page.getByRole('checkbox', { name: /^write/ }).check();
    await page.getByRole('button', { name: 'Create client' }).click();
    const secret = await page.getByLabel('Client secret').inputValue();
    const clientId = await page
      .getByRole('row')
      .filter({ hasText: 'nightly export' })
      .getByRole('cell')
      .nth(1)
      .innerText();
    const token = (id: string, sec: string) =>
      fetch(`${base}/oauth/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: id,
          client_secret: sec,
          scope: 'read write',
        }),
      });
    const issued = await token(clientId, secret);
    expect(issued.status).toBe(200);
    const { access_token } = (await issued.json()) as { access_token: string };
    const [contact] = generateContacts({ rows: 1, seed: 42 });
    const trace = await fetch(`${base}/api/v1/property/skiptrace`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${access_token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(demoQueryFor(contact!)),
    });
    expect(trace.status).toBe(200);
    await expect(page.getByRole('row').filter({ hasText: 'nightly export' }).innerText()).resolves.toMatch(
      /read\s*write/,
    );
    await shot('clients');
    expect(await seriousViolations()).toEqual([]);

    await page.getByRole('button', { name: 'Revoke nightly export' }).click();
    await page.getByRole('button', { name: 'Revoke for good' }).click();
    await page.getByRole('row').filter({ hasText: 'nightly export' }).waitFor({ state: 'detached' });
    expect((await token(clientId, secret)).status).toBe(401);
  }, 30_000);

  it('signs out through the auth server and asks for the password again', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign out?' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${base}/console/signed-out`);
    await page.getByRole('heading', { name: 'Signed out' }).waitFor();
    expect(await seriousViolations()).toEqual([]);
    await page.getByRole('link', { name: 'Sign in again' }).click();
    await page.getByLabel('Password').waitFor();
  }, 20_000);
});
