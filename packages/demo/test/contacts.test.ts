import { describe, expect, it } from '@jest/globals';
import { normalizePhone, standardizeAddress } from '@skiptrace/matching';
import { demoQueryFor, generateContacts } from '../src/index.ts';
import type { ContactRow } from '../src/index.ts';

const take = (rows: number, seed: number): ContactRow[] => [...generateContacts({ rows, seed })];

describe('generateContacts', () => {
  it('is deterministic: same seed, same rows; another seed, other rows', () => {
    expect(take(500, 7)).toEqual(take(500, 7));
    expect(take(50, 7)).not.toEqual(take(50, 8));
  });

  it('yields exactly the requested number of rows', () => {
    expect(take(0, 1)).toHaveLength(0);
    expect(take(1, 1)).toHaveLength(1);
    expect(take(1234, 1)).toHaveLength(1234);
  });

  const rows = take(3000, 42);

  it('uses only fictional 555-0100…0199 numbers, all valid E.164', () => {
    for (const row of rows) {
      for (const phone of [row.phone_1, row.phone_2]) {
        if (phone === null) continue;
        expect(normalizePhone(phone)).toMatch(/^\+1[2-9]\d{2}55501\d{2}$/);
      }
      expect(row.phone_1_type).toMatch(/^(mobile|landline|voip)$/);
      expect(row.phone_2_type === null).toBe(row.phone_2 === null);
    }
    const areaCodes = new Set(rows.map((row) => normalizePhone(row.phone_1)?.slice(2, 5)));
    expect(areaCodes.size).toBeGreaterThan(50);
  });

  it('uses only RFC 2606 example domains for e-mail', () => {
    for (const row of rows)
      if (row.email_1 !== null) expect(row.email_1).toMatch(/^[a-z.]+\d+@example\.(com|net|org)$/);
  });

  it('groups 1–4 people per household, mostly sharing a last name, with some units', () => {
    const households = new Map<string, ContactRow[]>();
    for (const row of rows) {
      const key = standardizeAddress(row).unitKey;
      households.set(key, [...(households.get(key) ?? []), row]);
    }
    const sizes = [...households.values()].map((people) => people.length);
    expect(Math.max(...sizes)).toBe(4);
    expect(sizes.filter((size) => size > 1).length).toBeGreaterThan(sizes.length / 2);
    const shared = [...households.values()].filter((people) =>
      people.every((p) => p.last_name === people[0]?.last_name),
    );
    expect(shared.length / households.size).toBeGreaterThan(0.7);
    const withUnit = rows.filter((row) => standardizeAddress(row).unitNumber !== null);
    expect(withUnit.length / rows.length).toBeGreaterThan(0.05);
  });

  it('produces addresses that standardise completely', () => {
    for (const row of rows) {
      const address = standardizeAddress(row);
      expect(address.number).toMatch(/^\d+$/);
      expect(address.streetName).not.toBe('');
      expect(address.state).toBe(row.state);
      expect(address.zip5).toBe(row.zip_code);
    }
  });
});

describe('demoQueryFor', () => {
  const rows = take(2000, 99);

  it('writes the address differently but to the same key and unit', () => {
    let differentText = 0;
    for (const row of rows) {
      const query = demoQueryFor(row);
      if (query.street_address !== row.street_address) differentText++;
      expect(standardizeAddress(query).unitKey).toBe(standardizeAddress(row).unitKey);
      expect(query.zip_code).toMatch(/^\d{5}-?\d{4}$/);
    }
    expect(differentText / rows.length).toBeGreaterThan(0.9);
  });

  it('is deterministic per row and variant', () => {
    const row = rows[0] as ContactRow;
    expect(demoQueryFor(row)).toEqual(demoQueryFor(row));
    const variants = new Set([0, 1, 2, 3, 4, 5].map((v) => demoQueryFor(row, v).street_address));
    expect(variants.size).toBeGreaterThan(1);
  });
});
