/**
 * The worker's lookup: every stored contact at the given address keys, with each phone's
 * Do-Not-Call and litigator flags resolved against `suppression` in the same statement.
 * One query for any number of keys (`address_key = ANY($1)`), so a batch chunk of hundreds
 * of properties costs one round trip; a single key is one index probe plus two primary-key
 * probes per phone.
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
  phones: Phone[];
  emails: string[];
  source: string;
}

const FIND_SQL = `
SELECT c.id, c.address_key, c.unit_key, c.first_name, c.last_name, c.first_norm, c.last_norm,
       c.street_address, c.city, c.state, c.zip5, c.emails, c.source,
       COALESCE((
         SELECT jsonb_agg(jsonb_build_object(
                  'number', p->>'number',
                  'type', p->>'type',
                  'dnc', EXISTS (SELECT 1 FROM suppression s WHERE s.kind = 'dnc' AND s.number = p->>'number'),
                  'litigator', EXISTS (SELECT 1 FROM suppression s WHERE s.kind = 'litigator' AND s.number = p->>'number')
                ) ORDER BY e.ord)
         FROM jsonb_array_elements(c.phones) WITH ORDINALITY AS e(p, ord)
       ), '[]'::jsonb) AS phones
FROM contacts c
WHERE c.address_key = ANY($1::text[])
ORDER BY c.address_key, c.id`;

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
  const { rows } = await db.query<CandidateRow>(FIND_SQL, [keys]);
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
      phones: row.phones,
      emails: row.emails,
      source: row.source,
    });
  }
  return byKey;
}
