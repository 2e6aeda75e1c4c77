/**
 * Candidate scoring: is this contact record the person the caller asked about?
 *
 * Additive, Fellegi–Sunter-flavoured weights on a 0..1 confidence (README.md has the
 * table). The address is a gate, not a weight: only records whose NUMBER|STREET|ZIP5 key
 * equals the query's are candidates at all. Within the address, the unit and the names
 * move confidence up or down from ADDRESS_BASE. A wrong person's phone is the costly
 * error in skip tracing (research §3.3), so a contradicted first or last name always
 * lands below MATCH_THRESHOLD, even when everything else agrees.
 */
import { standardizeAddress } from './address.ts';
import type { AddressInput, StandardAddress } from './address.ts';
import { compareNames, normalizePerson } from './names.ts';
import type { FieldLevel, NormalizedPerson } from './names.ts';

/** Records at or above this confidence are returned as matches. */
export const MATCH_THRESHOLD = 0.6;

export const WEIGHTS = {
  /** Same house number, street and ZIP5, no name evidence: the household-level answer. */
  addressBase: 0.7,
  unitMatch: 0.05,
  /** One side gives a unit, the other none (common: lead lists drop "Apt"). */
  unitMissing: -0.05,
  /** Both give a unit and they differ: a different dwelling. */
  unitMismatch: -0.4,
  last: { exact: 0.15, compound: 0.1, typo: 0.08, swapped: 0.08, nickname: 0, initial: 0, mismatch: -0.35, absent: 0 },
  first: {
    exact: 0.12,
    nickname: 0.1,
    typo: 0.07,
    swapped: 0.07,
    initial: 0.05,
    compound: 0,
    mismatch: -0.35,
    absent: 0,
  },
} as const;

export interface MatchQuery {
  address: StandardAddress;
  first_name?: string | null;
  last_name?: string | null;
}

/** What scoring needs from a stored contact; `address_key`/`unit_key` come from `candidateKeys`. */
export interface CandidateRecord {
  first_name: string | null;
  last_name: string | null;
  /** `StandardAddress.key` of the record's address. */
  address_key: string;
  /** `StandardAddress.unitKey` of the record's address. */
  unit_key: string;
}

export interface CandidateScore {
  /** 0..1, rounded to 3 decimals. */
  confidence: number;
  reasons: string[];
}

export interface RankedCandidate<T extends CandidateRecord> extends CandidateScore {
  candidate: T;
}

/** The key fields to store beside a contact row so it can be scored later. */
export function candidateKeys(address: StandardAddress): Pick<CandidateRecord, 'address_key' | 'unit_key'> {
  return { address_key: address.key, unit_key: address.unitKey };
}

/** Standardises a raw request ({street_address, city, state, zip_code, first/last name}). */
export function buildMatchQuery(
  input: AddressInput & { first_name?: string | null; last_name?: string | null },
): MatchQuery {
  return {
    address: standardizeAddress(input),
    first_name: input.first_name ?? null,
    last_name: input.last_name ?? null,
  };
}

function unitOf(unitKey: string, key: string): string {
  return unitKey.length > key.length ? unitKey.slice(key.length + 1) : '';
}

function scorePrepared(address: StandardAddress, name: NormalizedPerson, candidate: CandidateRecord): CandidateScore {
  if (address.number === '' || address.streetName === '' || address.zip5 === null) {
    return { confidence: 0, reasons: ['address_incomplete'] };
  }
  if (candidate.address_key !== address.key) return { confidence: 0, reasons: ['address_mismatch'] };
  const reasons = ['address_exact'];
  let confidence: number = WEIGHTS.addressBase;

  const queryUnit = unitOf(address.unitKey, address.key);
  const candidateUnit = unitOf(candidate.unit_key, candidate.address_key);
  if (queryUnit !== '' || candidateUnit !== '') {
    if (queryUnit === candidateUnit) {
      reasons.push('unit_match');
      confidence += WEIGHTS.unitMatch;
    } else if (queryUnit === '' || candidateUnit === '') {
      reasons.push('unit_missing');
      confidence += WEIGHTS.unitMissing;
    } else {
      reasons.push('unit_mismatch');
      confidence += WEIGHTS.unitMismatch;
    }
  }

  const names = compareNames(name, normalizePerson(candidate.first_name, candidate.last_name));
  reasons.push(...names.reasons);
  confidence += WEIGHTS.last[names.last as FieldLevel] + WEIGHTS.first[names.first as FieldLevel];
  return { confidence: Math.round(Math.min(1, Math.max(0, confidence)) * 1000) / 1000, reasons };
}

/** Scores one candidate record against a standardised query (see WEIGHTS). */
export function scoreCandidate(query: MatchQuery, candidate: CandidateRecord): CandidateScore {
  return scorePrepared(query.address, normalizePerson(query.first_name, query.last_name), candidate);
}

/** Candidates at or above MATCH_THRESHOLD, best first (ties keep input order). */
export function rankCandidates<T extends CandidateRecord>(
  query: MatchQuery,
  candidates: Iterable<T>,
): RankedCandidate<T>[] {
  const name = normalizePerson(query.first_name, query.last_name);
  const ranked: RankedCandidate<T>[] = [];
  for (const candidate of candidates) {
    const score = scorePrepared(query.address, name, candidate);
    if (score.confidence >= MATCH_THRESHOLD) ranked.push({ candidate, ...score });
  }
  return ranked.sort((a, b) => b.confidence - a.confidence);
}
