/**
 * The worker's lookup: every stored contact at the given address keys, with each phone's
 * Do-Not-Call and litigator flags resolved against `suppression`. Set-based: two queries
 * for any number of keys (contacts by `address_key = ANY($1)`, then the suppression rows
 * of all their numbers by `number = ANY($1)`), so a batch chunk of hundreds of properties
 * costs two round trips. (One statement with a per-phone subquery was tried: its cost
 * estimate, 100 rows per jsonb_array_elements, crossed jit_above_cost and JIT compilation
 * took 250 ms of a 360 ms 500-key lookup.)
 */
import type { Phone } from '@skiptrace/contracts';
import type { Sql } from '@skiptrace/storage';

export interface ContactCandidate {
  /** contacts.id (int8, as a string). */
  id: string;
  addressKey: string;
  /** Dwelling-level key (address key plus unit, "…|" when none). */
  unitKey: string;
  firstName: string;
  lastName: string;
  /** Normalised names as stored at import (for the name scorer). */
  firstNorm: string;
  lastNorm: string;
  /** Standardised street line, city, USPS state code and ZIP5 as stored. */
  streetAddress: string;
  city: string;
  state: string;
  zip5: string;
  /** In the file's order; dnc/litigator reflect the suppression lists at query time. */
  phones: Phone[];
  emails: string[];
  /** The import's source label. */
  source: string;
}

interface CandidateRow {
  id: string;
  address_key: string;
  unit_key: string;
  first_name: string;
  last_name: string;
  first_norm: string;
  last_norm: string;
  street_address: string;
  city: string;
  state: string;
  zip5: string;
  phones: StoredPhone[];
  emails: string[];
  source: string;
}

const CONTACTS_SQL = `
SELECT id, address_key, unit_key, first_name, last_name, first_norm, last_norm,
       street_address, city, state, zip5, phones, emails, source
FROM contacts
WHERE address_key = ANY($1::text[])
ORDER BY address_key, id`;

// Both kinds listed so the (kind, number) primary key serves the lookup.
const SUPPRESSION_SQL = `
SELECT kind, number FROM suppression
WHERE kind IN ('dnc', 'litigator') AND number = ANY($1::text[])`;

interface StoredPhone {
  number: string;
  type: Phone['type'];
}

/**
 * Contacts per address key. Every requested key is present in the result (an empty array
 * when nothing is stored there); within a key, rows come in import order.
 */
export async function findCandidates(
  db: Sql,
  addressKeys: readonly string[],
): Promise<Map<string, ContactCandidate[]>> {
  const keys = [...new Set(addressKeys)];
  const byKey = new Map<string, ContactCandidate[]>(keys.map((key) => [key, []]));
  if (keys.length === 0) return byKey;
  const { rows } = await db.query<CandidateRow>(CONTACTS_SQL, [keys]);
  const numbers = new Set<string>();
  for (const row of rows) for (const phone of row.phones) numbers.add(phone.number);
  const dnc = new Set<string>();
  const litigator = new Set<string>();
  if (numbers.size > 0) {
    const flagged = await db.query<{ kind: string; number: string }>(SUPPRESSION_SQL, [[...numbers]]);
    for (const { kind, number } of flagged.rows) (kind === 'dnc' ? dnc : litigator).add(number);
  }
  for (const row of rows) {
    byKey.get(row.address_key)?.push({
      id: row.id,
      addressKey: row.address_key,
      unitKey: row.unit_key,
      firstName: row.first_name,
      lastName: row.last_name,
      firstNorm: row.first_norm,
      lastNorm: row.last_norm,
      streetAddress: row.street_address,
      city: row.city,
      state: row.state,
      zip5: row.zip5,
      phones: row.phones.map(({ number, type }) => ({
        number,
        type,
        dnc: dnc.has(number),
        litigator: litigator.has(number),
      })),
      emails: row.emails,
      source: row.source,
    });
  }
  return byKey;
}
