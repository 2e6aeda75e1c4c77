/**
 * #27's done-when in headless Chromium against the one-process system: the exports investors
 * bring — PropStream-shaped (CSV in Windows-1252), BatchData-shaped (an Excel workbook) and
 * DealMachine-shaped (semicolon-separated CSV, the owner's whole name in one column) — each
 * map every field with no touch, trace the listed owner (the demo's owner world: absentee
 * landlords living elsewhere, their rentals let to tenants) and download as XLSX.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import ExcelJS from 'exceljs';
import type { OwnerWorldParcel } from '@skiptrace/demo';
import { createSystem, demoOwnerWorld, type System } from '@skiptrace/standalone';
import { freePort } from '@skiptrace/testing';
import { launchBrowser } from '@skiptrace/testing/browser';
import type { Browser, Page } from 'playwright-core';
import { signInToConsole } from './harness.ts';

const DEMO_ROWS = 300;

let system: System;
let base: string;
let dataDir: string;
let browser: Browser;
let page: Page;

/** A listed owner: a landlord's rental, the landlord's names and mailing address, and the phones the people data has for them. */
interface Listed {
  parcel: OwnerWorldParcel;
  first: string;
  last: string;
  phones: string[];
}

/** Properties of absentee owners (landlords, owners who moved out; persons) living at the roll's mailing address, with a phone each. */
function listedOwners(): Listed[] {
  const world = demoOwnerWorld(DEMO_ROWS);
  const out: Listed[] = [];
  world.truth.parcels.forEach((t, i) => {
    const owner = t.owners.length === 1 ? world.truth.people.get(t.owners[0]!) : undefined;
    const listed = t.listOwners[0];
    if (
      (t.situation === 'absentee_landlord' || t.situation === 'moved_out_mailing_current') &&
      t.recordKind === 'person' &&
      t.tied &&
      t.mailing === 'owner_current' &&
      owner?.current_phone &&
      !owner.deceased &&
      listed?.first_name &&
      !listed.first_name.includes(' ')
    ) {
      out.push({ parcel: world.parcels[i]!, first: listed.first_name, last: listed.last_name, phones: owner.phones });
    }
  });
  return out;
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'skiptrace-uploads-'));
  system = await createSystem({
    PORT: String(await freePort()),
    SKIPTRACE_DATA_DIR: dataDir,
    SKIPTRACE_DEMO_ROWS: String(DEMO_ROWS),
    LOG_LEVEL: 'silent',
  });
  base = await system.start();
  const demo = JSON.parse(await readFile(join(dataDir, 'demo-credentials.json'), 'utf8')) as {
    email: string;
    password: string;
  };
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  await page.goto(`${base}/console/`);
  await signInToConsole(page, base, demo.email, demo.password);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await system?.stop('test done');
  await rm(dataDir, { recursive: true, force: true });
});

/** The mapping select of a field: a select's label reads with its options, so matched by its start. */
const select = (label: string) => page.getByLabel(new RegExp(`^${label}(?: \\(optional\\))?(?![a-zA-Z ])`));

/**
 * Uploads `file`, expects every field mapped as `expected` with no warning, starts the batch,
 * waits for it, downloads the XLSX and returns its rows as objects by header.
 */
async function run(file: string, expected: Record<string, string>, facts: RegExp): Promise<Record<string, unknown>[]> {
  await page.goto(`${base}/console/batches`);
  await page.getByLabel('CSV file').setInputFiles(file);
  await page.getByTestId('preview-facts').waitFor();
  await expect(page.getByTestId('preview-facts').textContent()).resolves.toMatch(facts);
  for (const [label, column] of Object.entries(expected)) {
    await expect(select(label).inputValue()).resolves.toBe(column);
  }
  await expect(page.locator('[data-warning]').count()).resolves.toBe(0);
  await page.getByRole('button', { name: 'Start batch' }).click();
  await page.waitForURL(/\/console\/batches\/\d+$/);
  await page.locator('.badge.status', { hasText: 'completed' }).waitFor({ timeout: 60_000 });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download results (XLSX)' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile((await download.path())!);
  const sheet = book.getWorksheet('Results')!;
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  const [header, ...data] = rows;
  return data.map((r) => Object.fromEntries((header as string[]).map((h, i) => [h, r[i] ?? ''])));
}

/** The owner came back first: named as listed, flagged owner, with one of their own phones. */
function expectOwnerTraced(rows: Record<string, unknown>[], owners: Listed[]) {
  expect(rows).toHaveLength(owners.length);
  owners.forEach((owner, i) => {
    const row = rows[i]!;
    expect(row.status).toBe('completed');
    expect(String(row.phone_1_last_name).toUpperCase()).toBe(owner.last.toUpperCase());
    expect(row.phone_1_owner).toBe(true);
    expect(owner.phones).toContain(row.phone_1);
  });
}

const ADDRESS = { 'Street address': '', City: '', State: '', 'ZIP code': '' };

describe('uploads of the exports investors bring', () => {
  const owners = listedOwners();

  it('has owners to list', () => {
    expect(owners.length).toBeGreaterThanOrEqual(6);
  });

  it('PropStream-shaped CSV in Windows-1252: maps itself, traces the listed owner, downloads as XLSX', async () => {
    const listed = owners.slice(0, 2);
    const header = [
      'Address',
      'Unit #',
      'City',
      'State',
      'Zip',
      'County',
      'APN',
      'Owner Occupied',
      'Owner 1 First Name',
      'Owner 1 Last Name',
      'Owner 2 First Name',
      'Owner 2 Last Name',
      'Mailing Care of Name',
      'Mailing Address',
      'Mailing Unit #',
      'Mailing City',
      'Mailing State',
      'Mailing Zip',
    ];
    const csv = (v: string) => (/[",]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
    const lines = [header.join(',')];
    for (const o of listed) {
      const p = o.parcel;
      lines.push(
        [
          p.street_address,
          '',
          p.city,
          p.state,
          p.zip_code,
          'Doña Ana',
          p.apn,
          'No',
          o.first,
          o.last,
          '',
          '',
          '',
          p.mailing_street_address,
          '',
          p.mailing_city,
          p.mailing_state,
          p.mailing_zip_code,
        ]
          .map(csv)
          .join(','),
      );
    }
    const file = join(dataDir, 'propstream-export.csv');
    await writeFile(file, Buffer.from(`${lines.join('\r\n')}\r\n`, 'latin1'));
    const rows = await run(
      file,
      {
        ...ADDRESS,
        'Street address': 'Address',
        City: 'City',
        State: 'State',
        'ZIP code': 'Zip',
        'First name': 'Owner 1 First Name',
        'Last name': 'Owner 1 Last Name',
        'Mailing street address': 'Mailing Address',
        'Mailing city': 'Mailing City',
        'Mailing state': 'Mailing State',
        'Mailing ZIP code': 'Mailing Zip',
        'Parcel number \\(APN\\)': 'APN',
      },
      /WINDOWS-1252, detected/,
    );
    expect(rows[0]!.County).toBe('Doña Ana');
    expectOwnerTraced(rows, listed);
  }, 120_000);

  it('BatchData-shaped workbook: maps itself, traces the listed owner, downloads as XLSX', async () => {
    const listed = owners.slice(2, 4);
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Property List');
    sheet.addRow([
      'Property Address',
      'Property City',
      'Property State',
      'Property Zip',
      'First Name',
      'Last Name',
      'Mailing Address',
      'Mailing City',
      'Mailing State',
      'Mailing Zip',
    ]);
    for (const o of listed) {
      const p = o.parcel;
      sheet.addRow([
        p.street_address,
        p.city,
        p.state,
        p.zip_code,
        o.first,
        o.last,
        p.mailing_street_address,
        p.mailing_city,
        p.mailing_state,
        p.mailing_zip_code,
      ]);
    }
    const file = join(dataDir, 'batchdata-export.xlsx');
    await writeFile(file, Buffer.from(await book.xlsx.writeBuffer()));
    const rows = await run(
      file,
      {
        'Street address': 'Property Address',
        City: 'Property City',
        State: 'Property State',
        'ZIP code': 'Property Zip',
        'First name': 'First Name',
        'Last name': 'Last Name',
        'Mailing street address': 'Mailing Address',
        'Mailing ZIP code': 'Mailing Zip',
      },
      /XLSX · sheet Property List/,
    );
    expectOwnerTraced(rows, listed);
  }, 120_000);

  it('DealMachine-shaped CSV, semicolon-separated, the owner whole in one column: maps itself, traces the listed owner', async () => {
    const listed = owners.slice(4, 6);
    const header = [
      'property_id',
      'property_address_line_1',
      'property_address_city',
      'property_address_state',
      'property_address_zipcode',
      'owner_1_name',
      'owner_2_name',
      'mailing_address_line_1',
      'mailing_city',
      'mailing_state',
      'mailing_zipcode',
      'owner_location',
    ];
    const lines = [header.join(';')];
    listed.forEach((o, i) => {
      const p = o.parcel;
      lines.push(
        [
          String(9000 + i),
          p.street_address,
          p.city,
          p.state,
          p.zip_code,
          `${o.first} ${o.last}`,
          '',
          p.mailing_street_address,
          p.mailing_city,
          p.mailing_state,
          p.mailing_zip_code,
          'Absentee Owner',
        ].join(';'),
      );
    });
    const file = join(dataDir, 'dealmachine-export.csv');
    await writeFile(file, `${lines.join('\n')}\n`);
    const rows = await run(
      file,
      {
        'Street address': 'property_address_line_1',
        City: 'property_address_city',
        State: 'property_address_state',
        'ZIP code': 'property_address_zipcode',
        'Owner full name': 'owner_1_name',
        'Mailing street address': 'mailing_address_line_1',
        'Mailing ZIP code': 'mailing_zipcode',
      },
      /CSV/,
    );
    expectOwnerTraced(rows, listed);
  }, 120_000);
});
