import { z } from 'zod';
import { normalizePhone, normalizeState } from '@skiptrace/matching';
import type { RequestField } from './property-fields.ts';

/**
 * Limits the seed leaves open, decided here:
 * - strings are trimmed; street_address ≤ 200, city ≤ 100, names ≤ 100 characters;
 * - state is a USPS code, a full state/territory name or a common abbreviation, any case
 *   ("TX", "texas", "Calif.") — exactly what the matcher understands (@skiptrace/matching);
 * - zip_code is ZIP5 or ZIP+4, with or without the hyphen ("78701", "78701-1234", "787011234").
 */
export const LIMITS = {
  streetAddress: 200,
  city: 100,
  name: 100,
  apn: 64,
  listDefault: 50,
  listMax: 500,
} as const;

const text = (max: number) =>
  z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

const state = z
  .string()
  .trim()
  .refine((s) => normalizeState(s) !== null, 'must be a USPS state code or state name');
const zip = z
  .string()
  .trim()
  .regex(/^\d{5}(-?\d{4})?$/, 'must be a ZIP5 or ZIP+4 code');

/** A postal address: the owner's mailing address, a person's address on file. */
export const Address = z
  .object({
    street_address: text(LIMITS.streetAddress).describe('Street line (a PO box is accepted as a mailing address)'),
    city: text(LIMITS.city),
    state: state.describe('USPS code or full state name'),
    zip_code: zip.describe('ZIP5 or ZIP+4'),
  })
  .meta({ id: 'Address' });
export type Address = z.infer<typeof Address>;

/** The request's fields, one schema each: exactly REQUEST_FIELDS (a field added to one and not the other fails here). */
const PROPERTY_SHAPE = {
  street_address: text(LIMITS.streetAddress).describe('Street address of the property'),
  city: text(LIMITS.city).describe('City of the property'),
  state: state.describe('State of the property: USPS code or full name'),
  zip_code: zip.describe('Zip code of the property'),
  first_name: z.string().trim().max(LIMITS.name).optional().describe('First name of the property owner'),
  last_name: z
    .string()
    .trim()
    .max(LIMITS.name)
    .optional()
    .describe(
      'Last name of the property owner; may hold a whole owner string as lists write it ' +
        '("SMITH FAMILY TRUST", "ACME HOLDINGS LLC", "SMITH JOHN & MARY")',
    ),
  mailing_address: Address.optional().describe(
    "The owner's mailing address, when the list has it (absentee owners): a hint that ties the owner to the people on file",
  ),
  apn: z
    .string()
    .trim()
    .min(1)
    .max(LIMITS.apn)
    .optional()
    .describe("The parcel's assessor number, as the county writes it"),
} satisfies Record<RequestField, z.ZodType>;

export const Property = z.object(PROPERTY_SHAPE).meta({ id: 'Property' });
export type Property = z.infer<typeof Property>;

/** A stored property: what `plant.added` carries. */
export const StoredProperty = Property.extend({
  id: z.number().int().positive().describe('Property id (int64)'),
}).meta({ id: 'StoredProperty' });
export type StoredProperty = z.infer<typeof StoredProperty>;

const seen = (what: string) =>
  z.string().describe(`${what}, at the precision the data gives: YYYY, YYYY-MM or YYYY-MM-DD`).optional();

export const Phone = z
  .object({
    number: z.string().describe('E.164 phone number'),
    type: z.enum(['mobile', 'landline', 'voip', 'unknown']).describe('Line type as the data source states it'),
    dnc: z.boolean().describe('On an imported Do-Not-Call list'),
    litigator: z.boolean().describe('On an imported known-litigator list'),
    first_seen: seen('First seen in use by this person'),
    last_seen: seen('Last seen in use by this person'),
  })
  .meta({ id: 'Phone' });
export type Phone = z.infer<typeof Phone>;

/** An address in a person's history. */
export const AddressSeen = Address.extend({
  first_seen: seen('First seen living there'),
  last_seen: seen('Last seen living there'),
}).meta({ id: 'AddressSeen' });
export type AddressSeen = z.infer<typeof AddressSeen>;

export const OWNER_KINDS = ['person', 'trust', 'estate', 'company', 'government', 'organization'] as const;

/** One owner of record, parsed from the owner string as the roll writes it (@skiptrace/owners). */
export const OwnerOfRecord = z
  .object({
    kind: z.enum(OWNER_KINDS),
    name: z.string().describe('Readable form: "John A Smith", "Smith Family Trust", "Acme Holdings LLC"'),
    as_recorded: z.string().describe('The owner text as the record writes it'),
    first_name: z.string().optional(),
    middle_name: z.string().optional(),
    last_name: z.string().optional().describe('For a trust or estate: the person behind it, when named'),
    suffix: z.string().optional(),
  })
  .meta({ id: 'OwnerOfRecord' });
export type OwnerOfRecord = z.infer<typeof OwnerOfRecord>;

/** Most addresses returned per person (newest first). */
export const MAX_ADDRESSES = 10;

export const TraceResult = z
  .object({
    first_name: z.string(),
    last_name: z.string(),
    middle_name: z.string().optional(),
    confidence: z.number().min(0).max(1).describe('Match confidence, 0..1'),
    reasons: z.array(z.string()).describe('Why the person matched'),
    owner: z
      .boolean()
      .optional()
      .describe(
        'True: an owner of record of this property (a name agreement with the record, or with the name ' +
          'given when no record is loaded, plus an address tie: the property or the mailing address in the ' +
          "person's history). False: not an owner. Absent only when no record and no owner name exist.",
      ),
    resident: z.boolean().optional().describe('Lives at the property now (its address is the one seen last)'),
    deceased: z
      .boolean()
      .optional()
      .describe(
        'True when the people data says this person has died (an owner of record who died: their phones ' +
          'reach their household or estate, not them). Absent otherwise.',
      ),
    current_address: Address.optional().describe('The address seen last'),
    addresses: z
      .array(AddressSeen)
      .max(MAX_ADDRESSES)
      .optional()
      .describe(`Address history, newest first (at most ${MAX_ADDRESSES})`),
    phones: z
      .array(Phone)
      .describe(
        'Current first: most recently seen first, mobile before landline among equally recent ones; a number ' +
          'left behind at an old address comes after those in use',
      ),
    emails: z.array(z.string()),
  })
  .meta({ id: 'TraceResult' });
export type TraceResult = z.infer<typeof TraceResult>;

export const TRACE_STATUSES = ['pending', 'completed', 'no_match', 'failed'] as const;

export const PropertyResponse = z
  .object({
    id: z.number().int().positive().describe('Property id (int64); poll GET /property/skiptrace/{id}'),
    status: z.enum(TRACE_STATUSES),
    error: z.string().optional().describe('When skip tracing was unsuccessful, the reason'),
    results: z.array(TraceResult).describe('People found at the property, best match first'),
    truncated: z
      .boolean()
      .default(false)
      .describe(
        'True when `results` is not everyone who matched: more people matched than the cap ' +
          '(TRACE_MAX_PEOPLE, default 10), or the address holds more stored contacts than one ' +
          'query compares (200, so some were never compared). `people_total` then says how many matched.',
      ),
    people_total: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(
        'Only when `truncated`: how many people matched at the property in all (a lower bound when ' +
          'the address holds more than 200 stored contacts); `results` holds the best of them.',
      ),
    property: Property.optional(),
    owners_of_record: z
      .array(OwnerOfRecord)
      .optional()
      .describe(
        "The property record's owners, one entry per owner; present whenever a record is loaded, even when nobody is found",
      ),
    mailing_address: Address.optional().describe(
      "The owner's mailing address the trace used: the caller's, else the record's",
    ),
    created_at: z.string().describe('ISO 8601'),
    completed_at: z.string().optional().describe('ISO 8601'),
    batch_id: z.string().optional().describe('Listings: the batch the row came in, when it is a batch row'),
    standardized_address: z
      .object({ street_address: z.string(), city: z.string(), state: z.string(), zip_code: z.string() })
      .optional()
      .describe('Listings: the address in USPS Publication 28 form, as matching reads it ("123 N MAIN ST")'),
  })
  .meta({ id: 'PropertyResponse' });
export type PropertyResponse = z.infer<typeof PropertyResponse>;

export const ListQuery = z.object({
  limit: z.coerce
    .number()
    .int('limit must be an integer')
    .min(1, 'limit must be at least 1')
    .max(LIMITS.listMax, `limit must be at most ${LIMITS.listMax}`)
    .default(LIMITS.listDefault),
  cursor: z.string().max(200).optional(),
});

/** A phone filter as E.164: what normalizePhone reads, else 10 digits (+1) or 11 starting with 1. */
export function phoneFilterOf(text: string): string | null {
  const phone = normalizePhone(text);
  if (phone) return phone;
  const digits = text.replace(/\D/g, '');
  if (/[^\d\s()+.-]/.test(text)) return null;
  if (digits.length === 10) return `+1${digits}`;
  if (digits.length === 11 && digits.startsWith('1')) return `+${digits}`;
  return null;
}

/** A date filter: YYYY-MM-DD (UTC midnight) or an ISO 8601 date-time with an offset. */
const DateFilter = z
  .string({ error: 'must be given once' })
  .max(40)
  .refine((v) => /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2}))?$/.test(v) && !Number.isNaN(Date.parse(v)), {
    message: 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time with an offset',
  });

const filterText = (max: number) =>
  z
    .string({ error: 'must be given once' })
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`);

/**
 * GET /property/skiptrace: the list's page and its filters. Each filter narrows the page;
 * all given must hold. A search examines at most HISTORY_SCAN_ROWS rows a page (newest first,
 * or a batch's rows last first): a page may then hold fewer than `limit` results, even none,
 * and still carry X-Next-Cursor: follow it to search further.
 */
export const HistoryQuery = ListQuery.extend({
  address: filterText(LIMITS.streetAddress).describe(
    'Words of the address (street, city, state or ZIP), compared in USPS form: "12 north main street" finds "12 N Main St"',
  ),
  name: filterText(LIMITS.name).describe("Words of a name: the owner's name given, or a person found"),
  phone: filterText(40)
    .refine((v) => phoneFilterOf(v) !== null, { message: 'must be a US phone number (10 digits) or E.164' })
    .describe('A phone number found (any format: (512) 555-0147, +15125550147)'),
  batch: z
    .string({ error: 'must be given once' })
    .regex(/^[1-9]\d{0,18}$/, 'must be a batch id')
    .describe('Only the rows of this batch'),
  status: z.enum(TRACE_STATUSES, { error: `must be one of ${TRACE_STATUSES.join(', ')}` }),
  from: DateFilter.describe('Created at or after (YYYY-MM-DD: that day 00:00 UTC)'),
  to: DateFilter.describe('Created before (YYYY-MM-DD: the end of that day, UTC)'),
})
  .partial({ address: true, name: true, phone: true, batch: true, status: true, from: true, to: true })
  .refine((q) => !q.from || !q.to || historyRange(q).from! < historyRange(q).to!, {
    message: 'from must be before to',
    path: ['from'],
  });
export type HistoryQuery = z.infer<typeof HistoryQuery>;

/** The date filters as instants: `to` as a day means the end of that day. */
export function historyRange(q: { from?: string; to?: string }): { from?: Date; to?: Date } {
  const day = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v);
  const out: { from?: Date; to?: Date } = {};
  if (q.from) out.from = new Date(day(q.from) ? `${q.from}T00:00:00Z` : q.from);
  if (q.to) out.to = new Date(day(q.to) ? Date.parse(`${q.to}T00:00:00Z`) + 86_400_000 : Date.parse(q.to));
  return out;
}

/** Rows a History search examines per page at most (HistoryQuery). */
export const HISTORY_SCAN_ROWS = 5000;
