/**
 * Result parsers that make node-postgres and PGlite return the same JavaScript values
 * (the mapping is documented in database.port.ts). Both libraries are configured per
 * connection here; the global pg.types registry is left alone.
 */
import pg from 'pg';
import { types as pgliteTypes } from '@electric-sql/pglite';
import type { ParserOptions } from '@electric-sql/pglite';

/** PostgreSQL type oids touched here. */
export const OID = {
  int8: 20,
  int8Array: 1016,
  text: 25,
  textArray: 1009,
  date: 1082,
  dateArray: 1182,
  timestamp: 1114,
  timestamptz: 1184,
} as const;

const identity = (value: string): string => value;

type ParserLookup = (oid: number, format?: 'text' | 'binary') => (value: string) => unknown;
/** pg types its lookup with an enum of built-in oids; every oid used here is built in. */
const pgLookup = pg.types.getTypeParser as ParserLookup;
const pgParser = (oid: number) => pgLookup(oid, 'text');

/** timestamp without time zone read as UTC (pg's default reads it in local time). */
function parseTimestampAsUtc(value: string): unknown {
  const parseTz = pgParser(OID.timestamptz);
  return value.endsWith('infinity') ? parseTz(value) : parseTz(`${value}+00`);
}

/** The `types` option of a pg Pool: dates stay strings, timestamps are UTC. */
export const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (format === 'binary') return pgLookup(oid, format);
    if (oid === OID.date) return identity;
    if (oid === OID.dateArray) return pgParser(OID.textArray);
    if (oid === OID.timestamp) return parseTimestampAsUtc;
    return pgParser(oid);
  }) as typeof pg.types.getTypeParser,
};

/** The `parsers` option of PGlite: int8 as string (PGlite gives number or BigInt). */
export const pgliteParsers: ParserOptions = {
  [OID.int8]: identity,
  [OID.int8Array]: (value) => pgliteTypes.arrayParser(value, identity, OID.int8Array),
  [OID.date]: identity,
  [OID.dateArray]: (value) => pgliteTypes.arrayParser(value, identity, OID.dateArray),
};
