import { Readable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import ExcelJS from 'exceljs';
import { foldName, mappingWarnings, resolveColumns, type ColumnMap, type Field } from '../src/columns.ts';
import { sniffDelimiter, delimiterOf } from '../src/delimiter.ts';
import { validateRow } from '../src/ingest.ts';
import { sourceFor, type SourceItem } from '../src/sources.ts';

/** The columns each field resolves to, by name. */
function mapped(columns: string[], map: ColumnMap = {}): Partial<Record<Field, string>> {
  const resolution = resolveColumns(columns, map);
  return Object.fromEntries(
    (Object.keys(resolution) as Field[]).filter((f) => resolution[f] >= 0).map((f) => [f, columns[resolution[f]]]),
  );
}

describe('column aliases of the exports investors bring', () => {
  it('folds case, spaces, digits and punctuation: Owner 1 First Name = owner1_first_name = OWNER_1_FIRST_NAME', () => {
    expect(
      new Set(['Owner 1 First Name', 'owner1_first_name', 'OWNER_1_FIRST_NAME', 'owner-1.first name'].map(foldName))
        .size,
    ).toBe(1);
    for (const header of ['Owner 1 First Name', 'owner1_first_name', 'OWNER_1_FIRST_NAME']) {
      expect(mapped(['Address', 'City', 'State', 'Zip', header]).first_name).toBe(header);
    }
  });

  it('maps a PropStream export, leaving the second owner alone', () => {
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
      'Mailing County',
    ];
    expect(mapped(header)).toEqual({
      street_address: 'Address',
      city: 'City',
      state: 'State',
      zip_code: 'Zip',
      first_name: 'Owner 1 First Name',
      last_name: 'Owner 1 Last Name',
      mailing_street_address: 'Mailing Address',
      mailing_city: 'Mailing City',
      mailing_state: 'Mailing State',
      mailing_zip_code: 'Mailing Zip',
      apn: 'APN',
    });
  });

  it('maps BatchData / BatchSkipTracing, DealMachine, REISift and county-roll headers', () => {
    expect(
      mapped([
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
      ]),
    ).toMatchObject({
      street_address: 'Property Address',
      city: 'Property City',
      state: 'Property State',
      zip_code: 'Property Zip',
      first_name: 'First Name',
      last_name: 'Last Name',
      mailing_zip_code: 'Mailing Zip',
    });
    expect(
      mapped([
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
      ]),
    ).toEqual({
      street_address: 'property_address_line_1',
      city: 'property_address_city',
      state: 'property_address_state',
      zip_code: 'property_address_zipcode',
      owner_name: 'owner_1_name',
      mailing_street_address: 'mailing_address_line_1',
      mailing_city: 'mailing_city',
      mailing_state: 'mailing_state',
      mailing_zip_code: 'mailing_zipcode',
    });
    expect(
      mapped([
        'SITUS_ADDR',
        'SITUS_CITY',
        'SITUS_STATE',
        'SITUS_ZIP',
        'OWNER_NAME',
        'MAIL_ADDR',
        'MAIL_CITY',
        'MAIL_STATE',
        'MAIL_ZIP',
        'Parcel ID',
      ]),
    ).toEqual({
      street_address: 'SITUS_ADDR',
      city: 'SITUS_CITY',
      state: 'SITUS_STATE',
      zip_code: 'SITUS_ZIP',
      owner_name: 'OWNER_NAME',
      mailing_street_address: 'MAIL_ADDR',
      mailing_city: 'MAIL_CITY',
      mailing_state: 'MAIL_STATE',
      mailing_zip_code: 'MAIL_ZIP',
      apn: 'Parcel ID',
    });
    expect(
      mapped(['Site Address', 'Site City', 'Site State', 'Site Zip', 'Owner First Name', 'Owner Last Name']),
    ).toMatchObject({ street_address: 'Site Address', first_name: 'Owner First Name' });
  });

  it('reads headers no alias lists from their words: property, mailing, owner, parcel — and leaves what it cannot be sure of', () => {
    expect(
      mapped([
        'Prop Addr Street',
        'Prop Addr City Name',
        'Prop St',
        'SiteAddr Zip5',
        'Prop Zip+4',
        'Owner1 Given',
        'Owner1 Family',
        'Owner2 Given',
        'Owner2 Family',
        'Mail To Street',
        'Mail To City',
        'Mail To State',
        'Mail To Zip Code',
        'Parcel #',
        'Last Sale Date',
        'Situs Street Number',
        'Owner Occupied',
        'County',
      ]),
    ).toEqual({
      street_address: 'Prop Addr Street',
      city: 'Prop Addr City Name',
      zip_code: 'SiteAddr Zip5',
      first_name: 'Owner1 Given',
      last_name: 'Owner1 Family',
      mailing_street_address: 'Mail To Street',
      mailing_city: 'Mail To City',
      mailing_state: 'Mail To State',
      mailing_zip_code: 'Mail To Zip Code',
      apn: 'Parcel #',
    });
    // An owner's own address columns are the mailing address; the owner's name alone is the whole name.
    expect(
      mapped([
        'Physical Street Addr',
        'Physical City',
        'Physical State',
        'Physical Zip',
        'Owner Entity',
        'Owner Addr Line 1',
        'Owner Town',
      ]),
    ).toEqual({
      street_address: 'Physical Street Addr',
      city: 'Physical City',
      state: 'Physical State',
      zip_code: 'Physical Zip',
      owner_name: 'Owner Entity',
      mailing_street_address: 'Owner Addr Line 1',
      mailing_city: 'Owner Town',
    });
  });

  it('an explicit map wins and takes its column away from the aliases', () => {
    expect(
      mapped(['Address', 'Mailing Address', 'City', 'State', 'Zip'], { street_address: 'Mailing Address' }),
    ).toMatchObject({ street_address: 'Mailing Address' });
  });
});

describe('mapping warnings', () => {
  const warn = (columns: string[], map: ColumnMap = {}) =>
    mappingWarnings(columns, resolveColumns(columns, map)).map((w) => w.code);
  it('says so when owner-name columns are left unmapped, or only one of the pair is', () => {
    expect(warn(['Address', 'City', 'State', 'Zip', 'Owner 1 First Name', 'Owner 1 Last Name'])).toEqual([]);
    // A header no alias knows, and the user chose no name: everyone at the address would come back.
    expect(warn(['Address', 'City', 'State', 'Zip', 'Owner2FirstName', 'Owner2LastName'])).toEqual([
      'owner_names_unmapped',
    ]);
    expect(warn(['Address', 'City', 'State', 'Zip', 'Last Name'])).toEqual(['owner_name_half_mapped']);
    expect(warn(['Address', 'City', 'State', 'Zip'])).toEqual([]);
    expect(warn(['Address', 'City', 'State', 'Zip', 'owner_1_name'])).toEqual([]);
  });
});

describe('owner names in one column', () => {
  it('splits a whole name into first and last name when the row has none', () => {
    const columns = ['Address', 'City', 'State', 'Zip', 'Owner Name'];
    const resolution = resolveColumns(columns, {});
    expect(
      validateRow(['1 Main', 'Austin', 'TX', '78701', 'George A Adams III'], resolution, columns, 'firstLast'),
    ).toEqual({
      property: {
        street_address: '1 Main',
        city: 'Austin',
        state: 'TX',
        zip_code: '78701',
        first_name: 'George',
        last_name: 'Adams',
      },
    });
    expect(
      validateRow(['1 Main', 'Austin', 'TX', '78701', 'ADAMS GEORGE A'], resolution, columns, 'lastFirst'),
    ).toMatchObject({
      property: { first_name: 'George', last_name: 'Adams' },
    });
  });
});

describe('delimiter sniffing', () => {
  it('finds , ; tab and |, respecting quotes', () => {
    expect(sniffDelimiter('a,b,c\n1,2,3\n')).toBe(',');
    expect(sniffDelimiter('Address;City;State;Zip\n"1 Main St, Apt 2";Austin;TX;78701\n')).toBe(';');
    expect(sniffDelimiter('a\tb\tc\n1\t2\t3\n')).toBe('\t');
    expect(sniffDelimiter('a|b|c\n1|2|3\n')).toBe('|');
    expect(sniffDelimiter('address\n1 Main\n')).toBe(',');
    expect(delimiterOf('semicolon')).toBe(';');
    expect(delimiterOf('tab')).toBe('\t');
    expect(delimiterOf('x')).toBeUndefined();
  });
});

async function readAll(source: ReturnType<typeof sourceFor>) {
  const items: SourceItem[] = [];
  for await (const item of source.items) items.push(item);
  return items;
}
const limits = { maxRowBytes: 1000, maxColumns: 200 };

describe('readers', () => {
  it('reads a semicolon file in Windows-1252 and says how', async () => {
    const text = 'Address;City;State;Zip;First Name\n1 Main St;Austin;TX;78701;José\n';
    const source = sourceFor('csv', Readable.from([Buffer.from(text, 'latin1')]), limits);
    expect(await readAll(source)).toEqual([{ cells: ['1 Main St', 'Austin', 'TX', '78701', 'José'] }]);
    expect(source.info).toEqual({ delimiter: ';', encoding: { encoding: 'windows-1252', source: 'detected' } });
  });

  it('names the row that is too long', async () => {
    const text = `a,b\n1,2\n3,${'x'.repeat(2000)}\n`;
    await expect(readAll(sourceFor('csv', Readable.from([Buffer.from(text)]), limits))).rejects.toThrow(
      /^row 2 is longer than 1000 bytes/,
    );
  });

  it('reads the first sheet of a workbook, or the one chosen', async () => {
    const book = new ExcelJS.Workbook();
    book.addWorksheet('Notes').addRow(['nothing here']);
    const sheet = book.addWorksheet('Leads');
    sheet.addRow(['Address', 'City', 'State', 'Zip']);
    sheet.addRow(['1 Main St', 'Austin', 'TX', '01234']);
    sheet.addRow([]);
    sheet.addRow(['2 Elm St', 'Austin', 'TX', 78701]);
    const bytes = Buffer.from(await book.xlsx.writeBuffer());
    const first = sourceFor('xlsx', Readable.from([bytes]), limits);
    expect(await readAll(first)).toEqual([]);
    expect(first.columns).toEqual(['nothing here']);
    const chosen = sourceFor('xlsx', Readable.from([bytes]), limits, { sheet: 'Leads' });
    expect(await readAll(chosen)).toEqual([
      { cells: ['1 Main St', 'Austin', 'TX', '01234'] },
      { cells: ['2 Elm St', 'Austin', 'TX', '78701'] },
    ]);
    expect(chosen.info).toMatchObject({ sheet: 'Leads', sheets: ['Notes', 'Leads'] });
    await expect(readAll(sourceFor('xlsx', Readable.from([bytes]), limits, { sheet: 'Nope' }))).rejects.toMatchObject({
      status: 400,
    });
    await expect(readAll(sourceFor('xlsx', Readable.from([Buffer.from('not a zip')]), limits))).rejects.toMatchObject({
      status: 400,
    });
  });

  it('refuses a workbook that unpacks past the limits before unpacking it', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Big');
    for (let i = 0; i < 3000; i++) sheet.addRow([`${i}${'x'.repeat(200)}`, `${i}${'y'.repeat(200)}`]);
    const bytes = Buffer.from(await book.xlsx.writeBuffer());
    const small = { ...limits, maxInflatedBytes: 100_000 };
    await expect(readAll(sourceFor('xlsx', Readable.from([bytes]), small))).rejects.toMatchObject({ status: 413 });
    const ratio = { ...limits, maxInflationRatio: 2 };
    await expect(readAll(sourceFor('xlsx', Readable.from([bytes]), ratio))).rejects.toThrow(/decompression bomb/);
  });
  it('refuses a damaged workbook with 400 before its reader sees it (a damaged ZIP once made the reader wait for ever)', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('S');
    for (let i = 0; i < 200; i++) sheet.addRow([`${i} Main St`, 'Austin', 'TX', '78701']);
    const good = Buffer.from(await book.xlsx.writeBuffer());
    for (let k = 0; k < 30; k += 3) {
      const bad = Buffer.from(good);
      const at = Math.floor((bad.length * (k + 1)) / 32);
      for (let j = 0; j < 40; j++) bad[at + j] = (bad[at + j]! * 7 + 13) & 0xff;
      await expect(readAll(sourceFor('xlsx', Readable.from([bad]), limits))).rejects.toMatchObject({ status: 400 });
    }
  });
});
