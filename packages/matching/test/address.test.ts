import { describe, expect, it } from '@jest/globals';
import { createAddressStandardizer, normalizeState, normalizeZip, standardizeAddress } from '../src/index.ts';

const at = (street_address: string, zip_code: string | null = '90210') =>
  standardizeAddress({ street_address, city: 'Beverly Hills', state: 'CA', zip_code });

describe('standardizeAddress: noisy variants of one address share a key', () => {
  // Each group: every variant must give the same line and key.
  const groups: [line: string, variants: string[]][] = [
    [
      '123 N MAIN ST APT 5B',
      [
        '123 N Main St Apt 5B',
        '123 north main street apartment 5b',
        '123 N. MAIN ST., APT. 5B',
        '  123   North  Main   Str  Apt 5-B ',
        '123 N Main Strt Apt #5B',
        '123 N MAIN ST APT 05B',
      ],
    ],
    [
      '123 N MAIN ST # 5B',
      ['123 N Main St #5B', '123 n main st # 5b', '123 North Main Street, #5B', '123 N Main St 5B'],
    ],
    [
      '456 W SUNSET BLVD',
      ['456 W Sunset Blvd', '456 West Sunset Boulevard', '456 w. sunset boul.', '456 WEST SUNSET BOULV'],
    ],
    ['789 ELM AVE', ['789 Elm Ave', '789 Elm Avenue', '789 ELM AV', '789 elm aven', '789 Elm Avnue']],
    ['10 PARK AVE SW', ['10 Park Ave SW', '10 Park Avenue Southwest', '10 park ave. s.w.', '10 PARK AVENUE, SW']],
    ['55 1ST ST', ['55 First Street', '55 1st St', '55 1ST STREET', '55 first st.']],
    ['200 E 2ND ST', ['200 East Second Street', '200 E 2nd St', '200 E. 2d St.', '200 e second str']],
    ['31 21ST AVE', ['31 Twenty-First Avenue', '31 Twenty First Ave', '31 21st Av', '31 21th Ave']],
    ['12 SAINT CHARLES AVE', ['12 St. Charles Avenue', '12 Saint Charles Ave', '12 ST CHARLES AV']],
    ['12 MOUNT VERNON PL', ['12 Mt Vernon Pl', '12 Mount Vernon Place', '12 mt. vernon pl']],
    ['1 INFINITE LOOP', ['1 Infinite Loop', 'One Infinite Loop', '1 INFINITE LOOPS']],
    ['77 AVENUE B', ['77 Avenue B', '77 Ave B', '77 avenue b']],
    ['42 HIGHWAY 101 N', ['42 Highway 101 N', '42 Hwy 101 North', '42 HIWAY 101 N.']],
    ['7 COUNTY ROAD 42', ['7 County Road 42', '7 County Rd 42', '7 Co Rd 42', '7 Cnty Rd 42']],
    ['300 MAIN ST STE 200', ['300 Main St Suite 200', '300 Main Street Ste. 200', '300 MAIN ST, SUITE #200']],
    ['9 OAK DR UNIT 2', ['9 Oak Dr Unit 2', '9 Oak Drive, Unit 2', '9 OAK DRV UNIT 02']],
    ['15 PENA CT', ['15 Peña Ct', '15 PEÑA COURT', '15 Pena Ct']],
    ['8 OHARE LN', ["8 O'Hare Ln", '8 O’Hare Lane', '8 OHARE LN']],
  ];

  it.each(groups)('%s', (line, variants) => {
    const expected = at(variants[0] as string);
    expect(expected.line).toBe(line);
    for (const variant of variants) {
      const got = at(variant);
      expect({ variant, line: got.line, unitKey: got.unitKey }).toEqual({ variant, line, unitKey: expected.unitKey });
    }
  });
});

describe('standardizeAddress: components and keys', () => {
  it('splits every component and builds both keys', () => {
    const address = standardizeAddress({
      street_address: '123 n. Main Street NW Apt. 5b',
      city: 'beverly hills',
      state: 'California',
      zip_code: '90210-1234',
    });
    expect(address).toEqual({
      line: '123 N MAIN ST NW APT 5B',
      number: '123',
      preDirectional: 'N',
      streetName: 'MAIN',
      suffix: 'ST',
      postDirectional: 'NW',
      unitType: 'APT',
      unitNumber: '5B',
      street: 'N MAIN ST NW',
      city: 'BEVERLY HILLS',
      state: 'CA',
      zip5: '90210',
      zip4: '1234',
      key: '123|N MAIN ST NW|90210',
      unitKey: '123|N MAIN ST NW|90210|5B',
    });
  });

  it('leaves the unit out of key and its type out of unitKey', () => {
    expect(at('123 Main St Apt 5').key).toBe(at('123 Main St').key);
    expect(at('123 Main St Apt 5').unitKey).toBe(at('123 Main St Unit 5').unitKey);
    expect(at('123 Main St Apt 5').unitKey).not.toBe(at('123 Main St Apt 6').unitKey);
    expect(at('123 Main St').unitKey).toBe('123|MAIN ST|90210|');
    expect(at('9 Main St Rear').unitKey).toBe('9|MAIN ST|90210|REAR');
  });

  it('keeps a directional that is the street name as a word', () => {
    expect(at('77 North St').street).toBe('NORTH ST');
    expect(at('77 N Ave').street).toBe('NORTH AVE');
    expect(at('77 N Main').street).toBe('N MAIN');
  });

  it('does not mistake street words for unit designators', () => {
    expect(at('5 W Front St').line).toBe('5 W FRONT ST');
    expect(at('9 Lake Front').line).toBe('9 LAKE FRONT');
    expect(at('15 Harbor Key Apt 3').line).toBe('15 HARBOR KY APT 3');
    expect(at('7 Bus Stop Rd').line).toBe('7 BUS STOP RD');
  });

  it('drops a designator that has no number', () => {
    expect(at('123 Main St Apt').unitKey).toBe('123|MAIN ST|90210|');
    expect(at('123 Main Street, Unit').line).toBe('123 MAIN ST');
    expect(at('20 Ocean Key').line).toBe('20 OCEAN KY');
  });

  it('handles fractions, alphanumeric and grid house numbers', () => {
    expect(at('123 1/2 Elm St').number).toBe('123 1/2');
    expect(at('123-A Oak Dr').number).toBe('123A');
    expect(at('0123 Oak Dr').number).toBe('123');
    expect(at('W24320 Main St').number).toBe('W24320');
  });

  it('writes out St/Mt/Ft at the start of a city', () => {
    expect(
      standardizeAddress({ street_address: '1 Main St', city: 'St. Louis', state: 'MO', zip_code: '63101' }).city,
    ).toBe('SAINT LOUIS');
    expect(
      standardizeAddress({ street_address: '1 Main St', city: 'ft worth', state: 'tx', zip_code: '76102' }).city,
    ).toBe('FORT WORTH');
  });

  it('gives an empty ZIP part when the ZIP is unusable', () => {
    const address = at('1 Main St', 'n/a');
    expect(address.zip5).toBeNull();
    expect(address.key).toBe('1|MAIN ST|');
  });
});

describe('normalizeState', () => {
  it.each([
    ['CA', 'CA'],
    ['ca', 'CA'],
    ['California', 'CA'],
    ['Calif.', 'CA'],
    ['new york', 'NY'],
    ['N. Dak.', 'ND'],
    ['District of Columbia', 'DC'],
    ['D.C.', 'DC'],
    ['Puerto Rico', 'PR'],
    ['Guam', 'GU'],
    ['west virginia', 'WV'],
    ['Mass', 'MA'],
  ])('%s → %s', (input, code) => {
    expect(normalizeState(input)).toBe(code);
  });

  it.each(['', 'XX', 'Narnia', null, undefined])('%s → null', (input) => {
    expect(normalizeState(input)).toBeNull();
  });
});

describe('normalizeZip', () => {
  it.each([
    ['90210', { zip5: '90210', zip4: null }],
    ['90210-1234', { zip5: '90210', zip4: '1234' }],
    ['90210 1234', { zip5: '90210', zip4: '1234' }],
    ['902101234', { zip5: '90210', zip4: '1234' }],
    ['2134', { zip5: '02134', zip4: null }],
    ['21341234', { zip5: '02134', zip4: '1234' }],
    ['02134.0', { zip5: '02134', zip4: null }],
    ['90210-12', { zip5: '90210', zip4: null }],
    [' 90210- ', { zip5: '90210', zip4: null }],
  ])('%s', (input, expected) => {
    expect(normalizeZip(input)).toEqual(expected);
  });

  it('accepts numbers from spreadsheets', () => {
    expect(normalizeZip(2134)).toEqual({ zip5: '02134', zip4: null });
  });

  it.each(['', 'ABCDE', '12', '123456', '00000', null])('%s → null', (input) => {
    expect(normalizeZip(input)).toBeNull();
  });
});

describe('createAddressStandardizer', () => {
  it('gives what standardizeAddress gives, for repeated and varied inputs, with a tiny memo', () => {
    const standardize = createAddressStandardizer(2);
    const streets = ['123 N Main St Apt 5B', '12 Saint James Row', 'PO Box 12', '', '5 1/2 Elm', '77 W. 3rd St #4'];
    const cities = ['Beverly Hills', 'st louis', 'Ft. Worth', ''];
    const states = ['CA', 'new york', 'Calif.', 'XX', ''];
    const zips: (string | number | null)[] = ['90210', '2134', '90210-1234', 'abc', '', 2134, null];
    for (let round = 0; round < 2; round++) {
      for (const street_address of streets)
        for (const city of cities)
          for (const state of states)
            for (const zip_code of zips) {
              const input = { street_address, city, state, zip_code };
              expect(standardize(input)).toEqual(standardizeAddress(input));
            }
    }
  });

  it('returns results that share nothing mutable with the memo', () => {
    const standardize = createAddressStandardizer();
    const input = { street_address: '123 N Main St Apt 5B', city: 'Austin', state: 'TX', zip_code: '78701' };
    const first = standardize(input);
    first.number = '999';
    expect(standardize(input)).toEqual(standardizeAddress(input));
  });
});

describe('addressTokens: the plain-line shortcut', () => {
  it('splits letters, digits and spaces exactly as the full rules do', async () => {
    const { addressTokens } = await import('../src/text.ts');
    // A trailing '.' (a separator under the full rules) sends the same line the full way.
    const full = (input: string) => addressTokens(`${input}.`);
    for (const input of ['123 Main St', '  12   n  elm  ', '', ' ', 'PO Box 44', '5 w 3rd st apt 4b', 'abc']) {
      expect(addressTokens(input)).toEqual(full(input));
    }
  });
});
