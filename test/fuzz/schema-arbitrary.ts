/**
 * fast-check arbitraries from the JSON Schemas of the OpenAPI document (which is generated
 * from the Zod schemas in @skiptrace/contracts), so the fuzzer follows the routes' real
 * shapes: values that satisfy the schema most of the time, and the same shapes with hostile
 * leaves, wrong types and unknown keys the rest of the time.
 */
import fc from 'fast-check';
import { hostileString, hostileValue } from './hostile.ts';

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
};

export type Components = Record<string, JsonSchema>;

/** Plausible strings for well-known field names, so valid requests reach deep code paths. */
const FIELD_SAMPLES: Record<string, string[]> = {
  street_address: ['123 Main St', '1600 Pennsylvania Ave NW', '742 Evergreen Terrace Apt 2B'],
  city: ['Springfield', 'Austin', 'São Paulo'],
  state: ['TX', 'IL', 'CA', 'tx', 'ZZ'],
  zip: ['78701', '62704-1234', '00000', '1'],
  first_name: ['Jane', 'José', 'Ng'],
  last_name: ['Doe', "O'Brien", 'Smith-Jones'],
  // The fuzz system allows loopback targets only (SKIPTRACE_WEBHOOK_LOOPBACK_ONLY): the first two
  // register and get deliveries refused on this machine; the others are refused at registration.
  url: ['http://127.0.0.1:9/hook', 'http://localhost:9/x', 'http://10.0.0.1/x', 'https://hooks.invalid/h'],
  since: ['2026-01-01T00:00:00Z', 'yesterday', '1970-01-01T00:00:00.000Z'],
};

/** Valid-looking values for a schema (depth-limited so recursive schemas stay finite). */
export function arbitraryFor(schema: JsonSchema, components: Components, field = '', depth = 0): fc.Arbitrary<unknown> {
  if (depth > 6) return fc.constant(null);
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop()!;
    return arbitraryFor(components[name] ?? {}, components, field, depth + 1);
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => arbitraryFor(s, components, field, depth + 1)));
  if (schema.allOf?.length) return arbitraryFor(schema.allOf[0]!, components, field, depth + 1);
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : ['object', 'string'];
  return fc.oneof(...types.map((type) => arbitraryOfType(type, schema, components, field, depth)));
}

function arbitraryOfType(
  type: string,
  schema: JsonSchema,
  components: Components,
  field: string,
  depth: number,
): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({
        min: Math.max(schema.minimum ?? -1_000_000, Number.MIN_SAFE_INTEGER),
        max: Math.min(schema.maximum ?? 1_000_000, Number.MAX_SAFE_INTEGER),
      });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case 'string': {
      const samples = FIELD_SAMPLES[field];
      const text = fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 80) });
      return samples ? fc.oneof(fc.constantFrom(...samples), text) : text;
    }
    case 'array':
      return fc.array(arbitraryFor(schema.items ?? {}, components, field, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, 4),
      });
    case 'object': {
      const properties = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const shape = Object.fromEntries(
        Object.entries(properties).map(([key, s]) => [key, arbitraryFor(s, components, key, depth + 1)]),
      );
      return fc.record(shape, { requiredKeys: [...required].filter((k) => k in properties) });
    }
    default:
      return fc.constant(null);
  }
}

/** The schema's values, with hostile variants: a leaf replaced, an unknown key, a wrong type. */
export function bodyValueFor(schema: JsonSchema, components: Components): fc.Arbitrary<unknown> {
  const valid = arbitraryFor(schema, components);
  return fc.oneof(
    { weight: 5, arbitrary: valid },
    { weight: 3, arbitrary: fc.tuple(valid, fc.string(), hostileValue).map(([v, k, x]) => injectLeaf(v, k, x)) },
    { weight: 1, arbitrary: hostileValue },
    { weight: 1, arbitrary: fc.anything({ maxDepth: 3 }) },
    { weight: 1, arbitrary: hostileString },
  );
}

/** Replaces one leaf of a JSON value (chosen by the key's hash) with a hostile value. */
function injectLeaf(value: unknown, key: string, hostile: unknown): unknown {
  if (Array.isArray(value)) {
    if (value.length === 0) return [hostile];
    const i = key.length % value.length;
    return value.map((item, j) => (j === i ? injectLeaf(item, key, hostile) : item));
  }
  if (value && typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 0 || key.length % 3 === 0) return { ...value, [key || '__proto__']: hostile };
    const chosen = keys[key.length % keys.length]!;
    return { ...value, [chosen]: injectLeaf((value as Record<string, unknown>)[chosen], key, hostile) };
  }
  return hostile;
}
