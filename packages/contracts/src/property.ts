import { z } from 'zod';
import { normalizeState } from '@skiptrace/matching';

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
  listDefault: 50,
  listMax: 500,
} as const;

const text = (max: number) =>
  z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

export const Property = z
  .object({
    street_address: text(LIMITS.streetAddress).describe('Street address of the property'),
    city: text(LIMITS.city).describe('City of the property'),
    state: z
      .string()
      .trim()
      .refine((s) => normalizeState(s) !== null, 'must be a USPS state code or state name')
      .describe('State of the property: USPS code or full name'),
    zip_code: z
      .string()
      .trim()
      .regex(/^\d{5}(-?\d{4})?$/, 'must be a ZIP5 or ZIP+4 code')
      .describe('Zip code of the property'),
    first_name: z.string().trim().max(LIMITS.name).optional().describe('First name of the property owner'),
    last_name: z.string().trim().max(LIMITS.name).optional().describe('Last name of the property owner'),
  })
  .meta({ id: 'Property' });
export type Property = z.infer<typeof Property>;

/** A stored property: what `plant.added` carries. */
export const StoredProperty = Property.extend({
  id: z.number().int().positive().describe('Property id (int64)'),
}).meta({ id: 'StoredProperty' });
export type StoredProperty = z.infer<typeof StoredProperty>;

export const Phone = z
  .object({
    number: z.string().describe('E.164 phone number'),
    type: z.enum(['mobile', 'landline', 'voip', 'unknown']).describe('Line type as the data source states it'),
    dnc: z.boolean().describe('On an imported Do-Not-Call list'),
    litigator: z.boolean().describe('On an imported known-litigator list'),
  })
  .meta({ id: 'Phone' });
export type Phone = z.infer<typeof Phone>;

export const TraceResult = z
  .object({
    first_name: z.string(),
    last_name: z.string(),
    confidence: z.number().min(0).max(1).describe('Match confidence, 0..1'),
    reasons: z.array(z.string()).describe('Why the person matched'),
    phones: z.array(Phone),
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
    created_at: z.string().describe('ISO 8601'),
    completed_at: z.string().optional().describe('ISO 8601'),
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
