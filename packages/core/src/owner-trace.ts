/**
 * The owner model's part of a trace (ADR 0010, docs/matching.md "Owners"): who owns the
 * property of record, which people on file are those owners, and what a person looks
 * like across addresses (history, current address, phones with dates).
 *
 * An owner is flagged only on a name agreement plus an address tie: the person's name
 * agrees with an owner of record (or, without a record, with the name the caller gave),
 * and the person was seen at the property or at the owner's mailing address. A company,
 * government or organisation owner is named as such and nobody is flagged for it.
 */
import type { Address, AddressSeen, OwnerOfRecord, Phone, Property } from '@skiptrace/contracts';
import { MAX_ADDRESSES } from '@skiptrace/contracts';
import {
  seenEndDay,
  seenStartDay,
  type ContactCandidate,
  type PersonRow,
  type PropertyRecordRow,
} from '@skiptrace/contacts';
import {
  candidatePerson,
  compareNames,
  normalizePerson,
  type NormalizedPerson,
  type StandardAddress,
} from '@skiptrace/matching';
import { parseOwnerNames, parseOwnerParts, type OwnerOfRecord as ParsedOwner } from '@skiptrace/owners';

/** What a trace query may carry beyond the seed's six fields. */
export type TraceQuery = Property;

/** The record of the query's dwelling among those at its address key: same unit, else the building's, else the first. */
export function recordFor(
  records: PropertyRecordRow[] | undefined,
  address: StandardAddress,
): PropertyRecordRow | undefined {
  if (records === undefined || records.length === 0) return undefined;
  return (
    records.find((r) => r.unit_key === address.unitKey) ??
    records.find((r) => r.unit_key === `${address.key}|`) ??
    records[0]
  );
}

/** The owners a record names: its owner lines, then its split owner columns (each owner once). */
export function ownersOfRecord(record: PropertyRecordRow): ParsedOwner[] {
  const options = { order: record.name_order };
  const owners = parseOwnerNames(
    [record.owner_name, record.owner_name_2].filter((s) => s !== ''),
    options,
  );
  const parts = parseOwnerParts(
    [
      { firstName: record.owner_1_first_name, lastName: record.owner_1_last_name },
      { firstName: record.owner_2_first_name, lastName: record.owner_2_last_name },
    ],
    options,
  );
  for (const owner of parts) {
    if (!owners.some((o) => o.kind === owner.kind && o.name.toUpperCase() === owner.name.toUpperCase()))
      owners.push(owner);
  }
  return owners;
}

/** The owner the caller named (first/last, or a whole owner string in last_name), when no record is loaded. */
export function ownersNamedBy(query: TraceQuery): ParsedOwner[] {
  if ((query.first_name ?? '') === '' && (query.last_name ?? '') === '') return [];
  return parseOwnerParts([{ firstName: query.first_name ?? '', lastName: query.last_name ?? '' }], {
    order: 'firstLast',
  });
}

/** The API form of an owner of record. */
export function ownerJson(owner: ParsedOwner): OwnerOfRecord {
  const out: OwnerOfRecord = { kind: owner.kind, name: owner.name, as_recorded: owner.asRecorded };
  if (owner.firstName !== undefined) out.first_name = owner.firstName;
  if (owner.middleName !== undefined) out.middle_name = owner.middleName;
  if (owner.lastName !== undefined) out.last_name = owner.lastName;
  if (owner.suffix !== undefined) out.suffix = owner.suffix;
  return out;
}

/** The record's mailing address in the API form, when it has one. */
export function recordMailing(record: PropertyRecordRow): Address | undefined {
  if (record.mailing_street_address === '') return undefined;
  return {
    street_address: record.mailing_street_address,
    city: record.mailing_city,
    state: record.mailing_state,
    zip_code: record.mailing_zip5,
  };
}

/** An owner the people on file can be searched for: a person, or the person (or surname) behind a trust or estate. */
export interface Sought {
  owner: ParsedOwner;
  person: NormalizedPerson;
  /** A given name is known: one person is sought; otherwise every adult of that surname at a tie. */
  named: boolean;
  middleInitial: string;
  suffix: string;
}

export function soughtOf(owners: ParsedOwner[]): Sought[] {
  const out: Sought[] = [];
  for (const owner of owners) {
    if (owner.kind !== 'person' && owner.kind !== 'trust' && owner.kind !== 'estate') continue;
    if (owner.lastName === undefined || owner.lastName === '') continue;
    const person = normalizePerson(owner.firstName ?? '', owner.lastName);
    if (person.last.length === 0) continue;
    out.push({
      owner,
      person: { ...person, entity: false },
      named: person.first.length > 0,
      middleInitial: (owner.middleName ?? '').slice(0, 1).toUpperCase(),
      suffix: (owner.suffix ?? '').toUpperCase().replace(/[^A-Z0-9]/g, ''),
    });
  }
  return out;
}

/**
 * How well a stored person's name agrees with a sought owner: 0 no agreement; higher is
 * better. Agreement: the surnames agree (exactly, compound, or one typo when the given
 * names agree exactly) and, when a given name is sought, the given names agree (exact,
 * nickname, initial, one typo) — or the two names are written the other way round. A
 * differing suffix (JR/SR) or middle initial is a disagreement.
 */
export function nameAgreement(sought: Sought, candidate: ContactCandidate): number {
  const names = compareNames(sought.person, candidatePerson(candidate));
  let score: number;
  if (names.swapped !== null) score = names.swapped === 'exact' ? 3 : 2;
  else {
    const last = names.last;
    const first = names.first;
    const lastOk =
      last === 'exact' || last === 'compound' || (last === 'typo1' && (first === 'exact' || first === 'nickname'));
    if (!lastOk) return 0;
    if (!sought.named) score = last === 'typo1' ? 0 : 2;
    else if (first === 'exact') score = last === 'exact' ? 4 : 3;
    else if (first === 'nickname' || first === 'typo1') score = 3;
    else if (first === 'initial') score = 2;
    else return 0;
  }
  if (score === 0) return 0;
  const suffix = candidate.suffix.toUpperCase().replace(/[^A-Z0-9]/g, '');
  if (sought.suffix !== '' && suffix !== '' && suffix !== sought.suffix) return 0;
  const middle = candidate.middleName.slice(0, 1).toUpperCase();
  if (sought.middleInitial !== '' && middle !== '') {
    if (middle !== sought.middleInitial) return 0;
    score += 1;
  }
  return score;
}

/** One person as the trace shows them: every row on file (one, for a row without a person_id). */
export interface PersonView {
  addresses: AddressSeen[];
  current: AddressSeen;
  /** Dwelling key (address key + unit) of the current address. */
  currentUnitKey: string;
  currentAddressKey: string;
  phones: Phone[];
  emails: string[];
  deceased: boolean;
}

function addressOf(row: {
  street_address: string;
  city: string;
  state: string;
  zip5: string;
  first_seen: string;
  last_seen: string;
}): AddressSeen {
  const out: AddressSeen = { street_address: row.street_address, city: row.city, state: row.state, zip_code: row.zip5 };
  if (row.first_seen !== '') out.first_seen = row.first_seen;
  if (row.last_seen !== '') out.last_seen = row.last_seen;
  return out;
}

/** Newest first: by the end of last_seen, then the start of first_seen (both '' last). */
function newerFirst(
  a: { first_seen: string; last_seen: string },
  b: { first_seen: string; last_seen: string },
): number {
  const la = seenEndDay(a.last_seen);
  const lb = seenEndDay(b.last_seen);
  if (la !== lb) return la < lb ? 1 : -1;
  const fa = seenStartDay(a.first_seen);
  const fb = seenStartDay(b.first_seen);
  return fa === fb ? 0 : fa < fb ? 1 : -1;
}

const TYPE_RANK: Record<Phone['type'], number> = { mobile: 0, voip: 1, landline: 2, unknown: 3 };

/** Where a person lives now (their row seen last) and whether they have died, from their rows. */
export function lifeOf(rows: PersonRow[]): { currentUnitKey: string; deceased: boolean } {
  let newest = rows[0]!;
  for (const row of rows) if (newerFirst(row, newest) < 0) newest = row;
  return { currentUnitKey: newest.unit_key, deceased: rows.some((r) => r.deceased) };
}

/**
 * A person from their rows: addresses newest first (the first is current), phones merged
 * across rows (a number kept over several moves once, with its earliest first_seen and
 * latest last_seen), most recently seen first, mobile before landline among equally
 * recent ones; numbers without dates after dated ones, in the source's order.
 */
export function personView(rows: PersonRow[], suppressed: { dnc: Set<string>; litigator: Set<string> }): PersonView {
  const sorted = [...rows].sort(newerFirst);
  const phones = new Map<string, { phone: Phone; order: number }>();
  const emails: string[] = [];
  let order = 0;
  for (const row of sorted) {
    for (const stored of row.phones) {
      const known = phones.get(stored.number);
      if (known === undefined) {
        const phone: Phone = {
          number: stored.number,
          type: stored.type,
          dnc: suppressed.dnc.has(stored.number),
          litigator: suppressed.litigator.has(stored.number),
        };
        if (stored.first_seen !== undefined) phone.first_seen = stored.first_seen;
        if (stored.last_seen !== undefined) phone.last_seen = stored.last_seen;
        phones.set(stored.number, { phone, order: order++ });
      } else {
        const p = known.phone;
        if (
          stored.last_seen !== undefined &&
          (p.last_seen === undefined || seenEndDay(stored.last_seen) > seenEndDay(p.last_seen))
        ) {
          p.last_seen = stored.last_seen;
        }
        if (
          stored.first_seen !== undefined &&
          (p.first_seen === undefined || seenStartDay(stored.first_seen) < seenStartDay(p.first_seen))
        ) {
          p.first_seen = stored.first_seen;
        }
      }
    }
    for (const email of row.emails) if (!emails.includes(email)) emails.push(email);
  }
  const ordered = [...phones.values()].sort((a, b) => {
    const la = seenEndDay(a.phone.last_seen ?? '');
    const lb = seenEndDay(b.phone.last_seen ?? '');
    if (la !== lb) return la < lb ? 1 : -1;
    // Undated numbers keep the source's order (a vendor's own ranking).
    if (la === 0) return a.order - b.order;
    const ta = TYPE_RANK[a.phone.type] ?? 3;
    const tb = TYPE_RANK[b.phone.type] ?? 3;
    return ta - tb || a.order - b.order;
  });
  const newest = sorted[0]!;
  return {
    addresses: sorted.slice(0, MAX_ADDRESSES).map(addressOf),
    current: addressOf(newest),
    currentUnitKey: newest.unit_key,
    currentAddressKey: newest.address_key,
    phones: ordered.map((p) => p.phone),
    emails,
    deceased: rows.some((r) => r.deceased),
  };
}

/** A candidate row as a PersonRow (for a person without a person_id: that row is all there is). */
export function rowOfCandidate(c: ContactCandidate, phones: PersonRow['phones'], emails: string[]): PersonRow {
  return {
    id: c.id,
    person_key: c.personKey,
    address_key: c.addressKey,
    unit_key: c.unitKey,
    street_address: c.streetAddress,
    city: c.city,
    state: c.state,
    zip5: c.zip5,
    first_seen: c.firstSeen,
    last_seen: c.lastSeen,
    phones,
    emails,
    deceased: c.deceased,
  };
}
