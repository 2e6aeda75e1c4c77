import { describe, expect, it } from '@jest/globals';
import { NICKNAME_GROUPS } from '../src/tables/nicknames.ts';
import { STATE_NAMES } from '../src/tables/states.ts';
import { PUB28_C1, SUFFIX_BY_FORM, SUFFIX_NAME } from '../src/tables/suffixes.ts';
import { DIRECTIONAL_BY_FORM, UNIT_BY_FORM, UNIT_REQUIRES_RANGE } from '../src/tables/units.ts';
import { normalizeState } from '../src/index.ts';

describe('Pub 28 C1 suffix table', () => {
  it('maps every listed form to a standard abbreviation that maps to itself', () => {
    for (const [standard, ...forms] of PUB28_C1) {
      expect(SUFFIX_BY_FORM.get(standard as string)).toBe(standard);
      for (const form of forms) {
        const mapped = SUFFIX_BY_FORM.get(form);
        expect(mapped).toBeDefined();
        expect(SUFFIX_BY_FORM.get(mapped as string)).toBe(mapped);
      }
    }
  });

  it('covers the C1 table (about 200 standard suffixes) with upper-case, unpunctuated forms', () => {
    expect(PUB28_C1.length).toBeGreaterThanOrEqual(195);
    expect(SUFFIX_BY_FORM.size).toBeGreaterThanOrEqual(480);
    for (const form of SUFFIX_BY_FORM.keys()) expect(form).toMatch(/^[A-Z]+$/);
  });

  it.each([
    ['AVENUE', 'AVE'],
    ['AV', 'AVE'],
    ['AVEN', 'AVE'],
    ['STREET', 'ST'],
    ['STR', 'ST'],
    ['BOULEVARD', 'BLVD'],
    ['CRSENT', 'CRES'],
    ['TRNPK', 'TPKE'],
    ['HIWAY', 'HWY'],
    ['PARKWAYS', 'PKWY'],
    ['MEADOW', 'MDW'],
    ['MEADOWS', 'MDWS'],
    ['MDW', 'MDW'],
    ['CENTRE', 'CTR'],
    ['XING', 'XING'],
  ])('%s → %s', (form, standard) => {
    expect(SUFFIX_BY_FORM.get(form)).toBe(standard);
  });

  it('knows each standard’s primary name', () => {
    expect(SUFFIX_NAME.get('AVE')).toBe('AVENUE');
    expect(SUFFIX_NAME.get('TPKE')).toBe('TURNPIKE');
    expect(SUFFIX_NAME.size).toBe(PUB28_C1.length);
  });
});

describe('C2 unit designators and directionals', () => {
  it('maps every designator form to a standard whose range rule is known', () => {
    for (const standard of UNIT_BY_FORM.values()) expect(UNIT_REQUIRES_RANGE.has(standard)).toBe(true);
    expect(UNIT_BY_FORM.get('SUITE')).toBe('STE');
    expect(UNIT_BY_FORM.get('APARTMENT')).toBe('APT');
    expect(UNIT_BY_FORM.get('FLOOR')).toBe('FL');
    expect(UNIT_REQUIRES_RANGE.get('REAR')).toBe(false);
  });

  it('maps all eight directions, spelled and abbreviated', () => {
    expect(new Set(DIRECTIONAL_BY_FORM.values())).toEqual(new Set(['N', 'S', 'E', 'W', 'NE', 'NW', 'SE', 'SW']));
    expect(DIRECTIONAL_BY_FORM.get('NORTHEAST')).toBe('NE');
  });
});

describe('state table', () => {
  it('has all 50 states, DC, the territories and the military codes', () => {
    expect(STATE_NAMES.size).toBe(62);
    for (const code of ['PR', 'GU', 'VI', 'AS', 'MP', 'DC', 'AA', 'AE', 'AP']) expect(STATE_NAMES.has(code)).toBe(true);
  });

  it('round-trips every code and every name', () => {
    for (const [code, name] of STATE_NAMES) {
      expect(normalizeState(code)).toBe(code);
      expect(normalizeState(name)).toBe(code);
      expect(normalizeState(name.toLowerCase())).toBe(code);
    }
  });
});

describe('nickname table', () => {
  it('has at least 300 groups of upper-case names without duplicates inside a group', () => {
    expect(NICKNAME_GROUPS.length).toBeGreaterThanOrEqual(300);
    for (const group of NICKNAME_GROUPS) {
      const names = group.split(' ');
      expect(names.length).toBeGreaterThanOrEqual(2);
      expect(new Set(names).size).toBe(names.length);
      for (const name of names) expect(name).toMatch(/^[A-Z]+$/);
    }
  });

  it('lists each formal name first exactly once', () => {
    const formal = NICKNAME_GROUPS.map((group) => group.split(' ')[0]);
    expect(new Set(formal).size).toBe(formal.length);
  });
});
