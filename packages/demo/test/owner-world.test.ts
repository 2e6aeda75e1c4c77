import { describe, expect, it } from '@jest/globals';
import { PROPERTY_RECORD_COLUMNS } from '@skiptrace/contracts';
import { foldAscii, normalizePhone } from '@skiptrace/matching';
import { generateOwnerWorld, OWNER_SITUATIONS, ownerWorldPeopleNdjson, ownerWorldPropertyCsv } from '../src/index.ts';
import type { OwnerWorld, ParcelTruth } from '../src/index.ts';
import type { OwnerWorldPerson } from '../src/owner-world.ts';

const world = generateOwnerWorld({ people: 2500, seed: 424242 });
const people = new Map(world.people.map((p) => [p.person_id, p]));
const truthOf = (situation: string): { parcel: OwnerWorld['parcels'][number]; truth: ParcelTruth }[] =>
  world.parcels
    .map((parcel, i) => ({ parcel, truth: world.truth.parcels[i]! }))
    .filter(({ truth }) => truth.situation === situation);
/** A comparable form of a street line: "123 Main Street Apt 4" and "123 MAIN ST" → "123MAIN". */
const street = (line: string): string => {
  const [number, name] = foldAscii(line).split(' ');
  return `${number}${name}`;
};
const livedAt = (person: OwnerWorldPerson, line: string): boolean =>
  person.addresses.some((a) => street(a.street_address) === street(line));
/** 'YYYY', 'YYYY-MM' or 'YYYY-MM-DD' → a comparable month number (a year alone: its first month, or its last). */
const month = (seen: string, end = false): number =>
  Number(seen.slice(0, 4)) * 12 + (seen.length >= 7 ? Number(seen.slice(5, 7)) - 1 : end ? 11 : 0);

describe('generateOwnerWorld', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const again = generateOwnerWorld({ people: 300, seed: 7 });
    expect(generateOwnerWorld({ people: 300, seed: 7 })).toEqual(again);
    expect(generateOwnerWorld({ people: 300, seed: 8 }).people).not.toEqual(again.people);
  });

  it('holds the people asked for and about 1.4 parcels a person', () => {
    expect(world.people).toHaveLength(2500);
    expect(new Set(world.people.map((p) => p.person_id)).size).toBe(2500);
    expect(world.parcels.length / world.people.length).toBeGreaterThan(1.35);
    expect(world.parcels.length / world.people.length).toBeLessThan(1.45);
    expect(world.truth.parcels).toHaveLength(world.parcels.length);
    expect(new Set(world.parcels.map((p) => p.apn)).size).toBe(world.parcels.length);
    expect(() => generateOwnerWorld({ people: 0, seed: 1 })).toThrow(RangeError);
  });

  it('has every situation, with owners, tenants and vacancies where they belong', () => {
    const counts = new Map<string, number>();
    for (const t of world.truth.parcels) counts.set(t.situation, (counts.get(t.situation) ?? 0) + 1);
    for (const situation of OWNER_SITUATIONS)
      expect([situation, (counts.get(situation) ?? 0) >= 8]).toEqual([situation, true]);
    for (const t of world.truth.parcels) {
      const noOwner = ['company', 'government', 'organization', 'owner_missing'].includes(t.situation);
      expect([t.apn, noOwner]).toEqual([t.apn, t.owners.length === 0]);
    }
    // Landlords own several rentals; tenants live in some of them.
    const landlords = new Map<string, number>();
    for (const { truth } of truthOf('absentee_landlord'))
      for (const id of truth.owners) landlords.set(id, (landlords.get(id) ?? 0) + 1);
    expect([...landlords.values()].filter((n) => n >= 3).length).toBeGreaterThan(10);
    expect(truthOf('absentee_landlord').filter(({ truth }) => truth.residents.length > 0).length).toBeGreaterThan(20);
    expect(truthOf('company').filter(({ truth }) => truth.residents.length > 0).length).toBeGreaterThan(20);
    expect(truthOf('owner_missing').filter(({ truth }) => truth.residents.length > 0).length).toBeGreaterThan(10);
  });

  it('people have 1–5 addresses, the current one seen last, dates in the three precisions', () => {
    const formats = new Set<string>();
    for (const p of world.people) {
      expect(p.addresses.length).toBeGreaterThanOrEqual(1);
      expect(p.addresses.length).toBeLessThanOrEqual(5);
      const [current, ...older] = p.addresses;
      for (const a of older) expect(month(a.last_seen, true)).toBeLessThan(month(current!.last_seen));
      for (const item of [...p.addresses, ...p.phones]) {
        for (const seen of [item.first_seen, item.last_seen]) {
          expect(seen).toMatch(/^\d{4}(-\d{2}(-\d{2})?)?$/);
          formats.add(String(seen.length));
        }
        expect(month(item.first_seen)).toBeLessThanOrEqual(month(item.last_seen, true));
      }
    }
    expect([...formats].sort()).toEqual(['10', '4', '7']);
  });

  it('phones are fictional (NPA-555-01XX) and valid, e-mails on example domains; the current phone is seen last', () => {
    for (const p of world.people) {
      for (const phone of p.phones) {
        const e164 = normalizePhone(phone.number);
        expect([phone.number, e164 !== null && /^\+1\d{3}55501\d{2}$/.test(e164)]).toEqual([phone.number, true]);
      }
      for (const email of p.emails) expect(email).toMatch(/@example\.(com|net|org)$/);
      const truth = world.truth.people.get(p.person_id)!;
      if (truth.current_phone === null) {
        expect(p.phones).toHaveLength(0);
        continue;
      }
      const latest = Math.max(...p.phones.map((ph) => month(ph.last_seen)));
      const current = p.phones.filter((ph) => normalizePhone(ph.number) === truth.current_phone);
      expect(current.some((ph) => month(ph.last_seen) === latest)).toBe(true);
      // A mobile first among the equally recent.
      const recent = p.phones.filter((ph) => month(ph.last_seen) === latest);
      if (recent.some((ph) => ph.type === 'mobile')) expect(current.some((ph) => ph.type === 'mobile')).toBe(true);
    }
    // A number belongs to one person, or to one household (a shared landline).
    const holders = new Map<string, number>();
    for (const t of world.truth.people.values())
      for (const n of new Set(t.phones)) holders.set(n, (holders.get(n) ?? 0) + 1);
    expect(Math.max(...holders.values())).toBeLessThanOrEqual(6);
  });

  it('owners who moved out lived at the property and left a landline behind there', () => {
    const movedOut = [
      ...truthOf('moved_out_mailing_current'),
      ...truthOf('moved_out_mailing_stale'),
      ...truthOf('moved_out_po_box'),
    ];
    expect(movedOut.length).toBeGreaterThan(50);
    let livedThere = 0;
    let leftBehind = 0;
    for (const { parcel, truth } of movedOut) {
      const owners = truth.owners.map((id) => people.get(id)!);
      if (owners.some((o) => livedAt(o, parcel.street_address))) livedThere++;
      if (
        owners.some((o) =>
          o.phones.some((ph) => ph.type === 'landline' && month(ph.last_seen) < month(o.addresses[0]!.last_seen)),
        )
      )
        leftBehind++;
      expect(truth.residents.some((id) => truth.owners.includes(id))).toBe(false);
    }
    expect(livedThere / movedOut.length).toBeGreaterThan(0.95); // the data lacks a few old addresses
    expect(leftBehind / movedOut.length).toBeGreaterThan(0.4);
    for (const { parcel } of truthOf('moved_out_po_box')) expect(parcel.mailing_street_address).toMatch(/^PO BOX \d+$/);
    for (const { parcel } of truthOf('moved_out_mailing_stale').filter(({ truth }) => truth.mailing === 'property'))
      expect(parcel.mailing_street_address).toBe(parcel.street_address);
  });

  it('absentee landlords never lived at their rentals; the mailing address is their home, now or before', () => {
    for (const { parcel, truth } of truthOf('absentee_landlord')) {
      for (const id of truth.owners) expect(livedAt(people.get(id)!, parcel.street_address)).toBe(false);
      expect(['owner_current', 'owner_old']).toContain(truth.mailing);
    }
  });

  it('owner-occupied parcels have an owner living there; residents live there now', () => {
    for (const { parcel, truth } of truthOf('owner_occupied')) {
      expect(truth.owners.some((id) => truth.residents.includes(id))).toBe(true);
      for (const id of truth.residents)
        expect(street(people.get(id)!.addresses[0]!.street_address)).toBe(street(parcel.street_address));
    }
  });

  it('writes owners the way rolls do', () => {
    const names = world.parcels.map((p) => p.owner_name);
    const some = (pattern: RegExp): number => names.filter((n) => pattern.test(n)).length;
    expect(some(/^[A-Z' -]+ [A-Z]+ [A-Z]$/)).toBeGreaterThan(50); // SMITH JOHN A
    expect(some(/ & /)).toBeGreaterThan(50);
    expect(some(/ H\/W$/)).toBeGreaterThan(3);
    expect(some(/ ETAL$/)).toBeGreaterThan(10);
    expect(some(/ (JR|SR|II|III)( |$)/)).toBeGreaterThan(3);
    expect(some(/FAMILY (REVOCABLE |LIVING )?TRUST$/)).toBeGreaterThan(10);
    expect(some(/ (TR|TRS|TRUSTEE|TRUSTEES)$/)).toBeGreaterThan(5);
    expect(world.parcels.filter((p) => /TRUST/.test(p.owner_name_2)).length).toBeGreaterThan(3);
    expect(some(/^(ESTATE OF|EST OF) | (EST|ESTATE|DECD)$/)).toBeGreaterThan(5);
    expect(some(/ (LLC|INC|CORP|LP|LTD)$/)).toBeGreaterThan(50);
    expect(some(/^(CITY OF|STATE OF|HOUSING AUTHORITY)|CHURCH|CONDOMINIUM/)).toBeGreaterThan(10);
    expect(Math.max(...names.map((n) => n.length))).toBeLessThanOrEqual(60);
    expect(names.filter((n) => n.length === 21).length).toBeGreaterThan(50); // cut at the field width
    expect(names.every((n) => n === n.toUpperCase() && !/[^ -~]/.test(n))).toBe(true);
    for (const { parcel, truth } of [...truthOf('company'), ...truthOf('government'), ...truthOf('organization')]) {
      expect(truth.owners).toEqual([]);
      expect(parcel.owner_occupied).not.toBe('Y');
    }
  });

  it('serialises the people as NDJSON and the roll as canonical CSV', () => {
    const small = generateOwnerWorld({ people: 200, seed: 3 });
    const lines = ownerWorldPeopleNdjson(small.people).trimEnd().split('\n');
    expect(lines).toHaveLength(200);
    expect(JSON.parse(lines[0]!)).toEqual(small.people[0]);
    const csv = ownerWorldPropertyCsv(small.parcels).trimEnd().split('\n');
    expect(csv[0]).toBe(PROPERTY_RECORD_COLUMNS.join(','));
    expect(csv).toHaveLength(small.parcels.length + 1);
    expect(ownerWorldPropertyCsv([{ ...small.parcels[0]!, owner_name: 'SMITH, JOHN "JACK"' }])).toContain(
      '"SMITH, JOHN ""JACK"""',
    );
  });
});
