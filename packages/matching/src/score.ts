/**
 * Candidate scoring: is this stored contact the person the caller asked about?
 *
 * Fellegi–Sunter (docs/matching.md). Each field comparison (compare.ts) lands on an
 * agreement level; each level carries a match weight log2(m/u) from MODEL (estimated on
 * generated data by test/eval/estimate-weights.ts and recorded in tables/model.ts). A
 * candidate's weight is the sum over fields. Weights become a calibrated probability:
 *
 * - a query with a first name asks for ONE person, so the candidates compete: with
 *   s = slope·weight + intercept, P(candidate i) = 2^s_i / (1 + Σ_j 2^s_j), the 1 being
 *   "the person is not on file". Records of one person (same names at the same door)
 *   count once together.
 * - an address-only or last-name-only query asks who lives there: each candidate is
 *   scored on its own, P = 1 / (1 + 2^-s).
 *
 * Contradicting evidence is never outweighed: a different house number or street (not a
 * candidate at all), a different unit on both sides, or a first or last name that
 * disagrees beyond a typo, nickname or initial keeps a candidate below MATCH_THRESHOLD.
 */
import { standardizeAddress } from './address.ts';
import type { AddressInput, StandardAddress } from './address.ts';
import { compareCity, compareStreet, compareUnit, compareZip, streetForms } from './compare.ts';
import type {
  CityLevel,
  FirstLevel,
  LastLevel,
  StreetForms,
  StreetLevel,
  SwapLevel,
  UnitLevel,
  ZipLevel,
} from './compare.ts';
import { compareNames, normalizePerson, personFromTokens } from './names.ts';
import type { NormalizedPerson } from './person.ts';
import { parseStreetLine } from './street.ts';
import { MODEL } from './tables/model.ts';

/** Records at or above this probability are returned as matches (docs/matching.md). */
export const MATCH_THRESHOLD = MODEL.threshold;

/** Below the threshold whatever else agrees (contradicting evidence). */
const REJECTED = 0;

export interface MatchQuery {
  address: StandardAddress;
  firstName?: string | null;
  lastName?: string | null;
}

/** What scoring needs from a stored contact; `addressKey`/`unitKey` come from `candidateKeys`. */
export interface CandidateRecord {
  firstName: string | null;
  lastName: string | null;
  /** `StandardAddress.key` of the record's address. */
  addressKey: string;
  /** `StandardAddress.unitKey` of the record's address. */
  unitKey: string;
  /** Normalised city as stored (normalizeCity); compared when given. */
  city?: string | null;
  /**
   * The names already normalised, as stored at import: nameTokens(name).join(' ') (packages
   * contacts). Saves normalising every candidate of every query; empty while the name is
   * not, or absent, and the names are normalised here.
   */
  firstNorm?: string;
  lastNorm?: string;
}

export interface FieldLevels {
  street: StreetLevel;
  zip: ZipLevel;
  city: CityLevel;
  unit: UnitLevel;
  first: FirstLevel;
  last: LastLevel;
  swapped: SwapLevel | null;
}

export interface CandidateScore {
  /** Calibrated probability 0..1 (3 decimals) that this is the person asked for (or, address-only, lives there). */
  confidence: number;
  reasons: string[];
}

export interface RankedCandidate<T extends CandidateRecord> extends CandidateScore {
  candidate: T;
}

/** The blocking keys a query is looked up by (packages/contacts findCandidates). */
export interface BlockingKeys {
  /** NUMBER|STREET|ZIP5. */
  addressKey: string;
  /** House number (first field of the address key). */
  number: string;
  zip5: string | null;
  state: string | null;
  city: string;
}

/** The key fields to store beside a contact row so it can be scored later. */
export function candidateKeys(address: StandardAddress): Pick<CandidateRecord, 'addressKey' | 'unitKey'> {
  return { addressKey: address.key, unitKey: address.unitKey };
}

export function blockingKeys(address: StandardAddress): BlockingKeys {
  return {
    addressKey: address.key,
    number: address.number,
    zip5: address.zip5,
    state: address.state,
    city: address.city,
  };
}

/** Standardises a raw request ({street_address, city, state, zip_code, first/last name}). */
export function buildMatchQuery(
  input: AddressInput & { first_name?: string | null; last_name?: string | null },
): MatchQuery {
  return {
    address: standardizeAddress(input),
    firstName: input.first_name ?? null,
    lastName: input.last_name ?? null,
  };
}

function unitOf(unitKey: string, key: string): string {
  return unitKey.length > key.length ? unitKey.slice(key.length + 1) : '';
}

/** A query prepared once for scoring many candidates. */
interface Prepared {
  address: StandardAddress;
  street: StreetForms;
  unit: string;
  person: NormalizedPerson;
  /** A first name was given: candidates compete for being the one person. */
  named: boolean;
  complete: boolean;
}

function prepare(query: MatchQuery): Prepared {
  const { address } = query;
  const person = normalizePerson(query.firstName, query.lastName);
  return {
    address,
    street: streetForms(address, address.street),
    unit: unitOf(address.unitKey, address.key),
    person,
    named: person.first.length > 0 && !person.entity,
    complete: address.number !== '' && address.streetName !== '' && (address.zip5 !== null || address.city !== ''),
  };
}

/** Street forms of a stored address key, parsed once per key. */
const MAX_PARSED = 20_000;
const parsedKeys = new Map<string, StreetForms>();

function recordStreet(key: string): StreetForms {
  let forms = parsedKeys.get(key);
  if (forms === undefined) {
    const [number = '', street = ''] = key.split('|');
    forms = streetForms(parseStreetLine(`${number} ${street}`), street);
    if (parsedKeys.size >= MAX_PARSED) parsedKeys.clear();
    parsedKeys.set(key, forms);
  }
  return forms;
}

interface Evaluated {
  /** Sum of match weights (bits); meaningless when rejected. */
  weight: number;
  rejected: boolean;
  reasons: string[];
  /** Identity of the person behind the record (names and door), for grouping duplicates. */
  identity: string;
}

function addressLevels(
  query: Prepared,
  candidate: CandidateRecord,
): Pick<FieldLevels, 'street' | 'zip' | 'city' | 'unit'> | null {
  const key = candidate.addressKey;
  const bar = key.indexOf('|');
  if (key.slice(0, bar) !== query.address.number) return null;
  const zip = key.slice(key.lastIndexOf('|') + 1);
  const street = key === query.address.key ? 'exact' : compareStreet(query.street, recordStreet(key));
  return {
    street,
    zip: query.address.zip5 === null ? 'different' : compareZip(query.address.zip5, zip),
    city: compareCity(query.address.city, candidate.city),
    unit: compareUnit(query.unit, unitOf(candidate.unitKey, key)),
  };
}

/** Every field's level for one candidate, or null when it is at another address (number or street). */
function levelsOf(query: Prepared, candidate: CandidateRecord, person: NormalizedPerson): FieldLevels | null {
  const address = addressLevels(query, candidate);
  if (address === null || address.street === 'different') return null;
  const names = compareNames(query.person, person);
  return { ...address, first: names.first, last: names.last, swapped: names.swapped };
}

/** The agreement levels of a candidate (null: another address), for estimating the weights. */
export function compareCandidate(query: MatchQuery, candidate: CandidateRecord): FieldLevels | null {
  return levelsOf(prepare(query), candidate, normalizePerson(candidate.firstName, candidate.lastName));
}

/** Sum of the match weights (bits) of a candidate's levels. */
export function matchWeight(levels: FieldLevels): number {
  const w = MODEL.weights;
  const names = levels.swapped !== null ? w.swapped[levels.swapped] : w.first[levels.first] + w.last[levels.last];
  return w.street[levels.street] + w.zip[levels.zip] + w.city[levels.city] + w.unit[levels.unit] + names;
}

/** Contradicting evidence: a different unit, or a first or last name beyond typo/nickname/initial. */
export function contradicts(levels: FieldLevels): boolean {
  if (levels.unit === 'different') return true;
  return levels.swapped === null && (levels.first === 'different' || levels.last === 'different');
}

function evaluate(query: Prepared, candidate: CandidateRecord, person: NormalizedPerson): Evaluated {
  const identity = `${candidate.unitKey}|${person.first.join(' ')}|${person.lastCompact}`;
  const levels = levelsOf(query, candidate, person);
  if (levels === null) return { weight: 0, rejected: true, reasons: ['address_mismatch'], identity };
  const reasons = [levels.street === 'exact' && levels.zip === 'exact' ? 'address_exact' : `street_${levels.street}`];
  if (levels.zip !== 'exact') reasons.push(`zip_${levels.zip}`);
  if (levels.unit !== 'none') reasons.push(`unit_${levels.unit}`);
  if (query.person.entity) reasons.push('name_entity');
  else if (levels.swapped !== null) reasons.push('name_swapped');
  else if (levels.first === 'absent' && levels.last === 'absent') reasons.push('name_absent');
  else reasons.push(`last_name_${levels.last}`, `first_name_${levels.first}`);
  return { weight: matchWeight(levels), rejected: contradicts(levels), reasons, identity };
}

/** Stored norms stand for nameTokens of a name only when present, and not empty beside a name. */
function storedNorm(norm: string | undefined, name: string | null): string | undefined {
  return norm === undefined || (norm === '' && name !== null && name !== '') ? undefined : norm;
}

const people = new WeakMap<CandidateRecord, NormalizedPerson>();

/**
 * A candidate's name normalised: from the norms stored at import when it has them, else
 * normalised here; once per candidate object (ranking and owner matching both ask).
 */
export function candidatePerson(candidate: CandidateRecord): NormalizedPerson {
  let person = people.get(candidate);
  if (person !== undefined) return person;
  const first = storedNorm(candidate.firstNorm, candidate.firstName);
  const last = storedNorm(candidate.lastNorm, candidate.lastName);
  person =
    first === undefined || last === undefined
      ? normalizePerson(candidate.firstName, candidate.lastName)
      : personFromTokens(first === '' ? [] : first.split(' '), last === '' ? [] : last.split(' '));
  people.set(candidate, person);
  return person;
}

function bits(x: number): number {
  return Math.round(Math.min(1, Math.max(0, x)) * 1000) / 1000;
}

function scoreAll<T extends CandidateRecord>(query: Prepared, candidates: Iterable<T>): RankedCandidate<T>[] {
  const { slope, intercept, householdIntercept } = MODEL.calibration;
  const out: RankedCandidate<T>[] = [];
  if (!query.complete) {
    for (const candidate of candidates) out.push({ candidate, confidence: 0, reasons: ['address_incomplete'] });
    return out;
  }
  const evaluated: { candidate: T; e: Evaluated }[] = [];
  for (const candidate of candidates) {
    const person = candidatePerson(candidate);
    evaluated.push({ candidate, e: evaluate(query, candidate, person) });
  }
  if (!query.named) {
    for (const { candidate, e } of evaluated) {
      const s = slope * e.weight + householdIntercept;
      out.push({ candidate, confidence: e.rejected ? REJECTED : bits(1 / (1 + 2 ** -s)), reasons: e.reasons });
    }
    return out;
  }
  // One person asked for: each identity's odds once, against "not on file" (the 1).
  const odds = new Map<string, number>();
  for (const { e } of evaluated) {
    if (e.rejected) continue;
    const o = 2 ** (slope * e.weight + intercept);
    if ((odds.get(e.identity) ?? 0) < o) odds.set(e.identity, o);
  }
  let total = 1;
  for (const o of odds.values()) total += o;
  for (const { candidate, e } of evaluated) {
    const confidence = e.rejected ? REJECTED : bits(2 ** (slope * e.weight + intercept) / total);
    out.push({ candidate, confidence, reasons: e.reasons });
  }
  return out;
}

/** Scores one candidate record against a standardised query (see MODEL). */
export function scoreCandidate(query: MatchQuery, candidate: CandidateRecord): CandidateScore {
  const [scored] = scoreAll(prepare(query), [candidate]);
  return { confidence: scored!.confidence, reasons: scored!.reasons };
}

/** Candidates at or above MATCH_THRESHOLD, best first (ties keep input order). */
export function rankCandidates<T extends CandidateRecord>(
  query: MatchQuery,
  candidates: Iterable<T>,
): RankedCandidate<T>[] {
  return scoreAll(prepare(query), candidates)
    .filter((scored) => scored.confidence >= MATCH_THRESHOLD)
    .sort((a, b) => b.confidence - a.confidence);
}
