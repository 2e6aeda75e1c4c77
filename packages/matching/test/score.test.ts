import { describe, expect, it } from '@jest/globals';
import {
  MATCH_THRESHOLD,
  buildMatchQuery,
  candidateKeys,
  normalizeCity,
  rankCandidates,
  scoreCandidate,
  standardizeAddress,
} from '../src/index.ts';
import type { CandidateRecord } from '../src/index.ts';

const home = { city: 'Springfield', state: 'IL', zip_code: '62701' };

function contact(
  first_name: string | null,
  last_name: string | null,
  street_address = '742 Evergreen Ter',
  place: { city: string; zip_code: string } = home,
): CandidateRecord {
  const address = standardizeAddress({ street_address, ...home, ...place });
  return { firstName: first_name, lastName: last_name, city: normalizeCity(place.city), ...candidateKeys(address) };
}

const query = (
  first_name?: string,
  last_name?: string,
  street_address = '742 evergreen terrace',
  place: Partial<typeof home> = {},
) => buildMatchQuery({ street_address, ...home, ...place, first_name, last_name });

const matches = (q: ReturnType<typeof query>, c: CandidateRecord): boolean =>
  scoreCandidate(q, c).confidence >= MATCH_THRESHOLD;

describe('scoreCandidate', () => {
  it('finds nothing at another house number, however good the name', () => {
    expect(scoreCandidate(query('Homer', 'Simpson'), contact('Homer', 'Simpson', '744 Evergreen Ter'))).toEqual({
      confidence: 0,
      reasons: ['address_mismatch'],
    });
  });

  it('finds nothing on another street with the same number', () => {
    const score = scoreCandidate(query('Homer', 'Simpson'), contact('Homer', 'Simpson', '742 Maple Ave'));
    expect(score).toEqual({ confidence: 0, reasons: ['address_mismatch'] });
  });

  it('refuses a query without house number, street or ZIP and city', () => {
    const noZip = buildMatchQuery({ street_address: 'Evergreen Ter', city: '', state: 'IL', zip_code: '' });
    expect(scoreCandidate(noZip, contact('Homer', 'Simpson')).reasons).toEqual(['address_incomplete']);
  });

  it('scores every household member on the address alone when no name is asked', () => {
    const score = scoreCandidate(query(), contact('Marge', 'Simpson'));
    expect(score.reasons).toEqual(['address_exact', 'name_absent']);
    expect(score.confidence).toBeGreaterThanOrEqual(MATCH_THRESHOLD);
  });

  it.each([
    ['exact', 'Homer', 'Simpson', 'first_name_exact'],
    ['nickname', 'Bart', 'Simpson', 'first_name_nickname'],
    ['typo', 'Hmoer', 'Simpson', 'first_name_typo1'],
    ['initial', 'H', 'Simpson', 'first_name_initial'],
    ['last-name typo', 'Homer', 'Simpsn', 'last_name_typo1'],
  ])('a good name match (%s) is a match', (_, first, last, reason) => {
    const candidate = contact(first === 'Bart' ? 'Bartholomew' : 'Homer', 'Simpson');
    const score = scoreCandidate(query(first, last), candidate);
    expect(score.confidence).toBeGreaterThanOrEqual(MATCH_THRESHOLD);
    expect(score.reasons).toContain(reason);
  });

  it('orders the evidence: exact > nickname > typo > initial', () => {
    const candidate = contact('Robert', 'Smith');
    const confidence = (first: string) => scoreCandidate(query(first, 'Smith'), candidate).confidence;
    expect(confidence('Robert')).toBeGreaterThanOrEqual(confidence('Bob'));
    expect(confidence('Bob')).toBeGreaterThanOrEqual(confidence('Robret'));
    expect(confidence('Robret')).toBeGreaterThan(confidence('R'));
  });

  it('finds the person through a misspelt street, a street glued to its suffix, and a wrong ZIP', () => {
    const homer = contact('Homer', 'Simpson', '742 Clearwater Dr');
    expect(matches(query('Homer', 'Simpson', '742 Clearwatar Dve'), homer)).toBe(true);
    expect(matches(query('Homer', 'Simpson', '742 Clearwaterdr'), homer)).toBe(true);
    expect(matches(query('Homer', 'Simpson', '742 Clear Water Drive'), homer)).toBe(true);
    expect(matches(query('Homer', 'Simpson', '742 Clearwater Dr', { zip_code: '62710' }), homer)).toBe(true);
  });

  it('puts another household member below the threshold when the first name differs', () => {
    const score = scoreCandidate(query('Homer', 'Simpson'), contact('Marge', 'Simpson'));
    expect(score.reasons).toEqual(['address_exact', 'last_name_exact', 'first_name_different']);
    expect(score.confidence).toBeLessThan(MATCH_THRESHOLD);
  });

  it('puts a different last name below the threshold', () => {
    expect(matches(query('Homer', 'Simpson'), contact('Homer', 'Flanders'))).toBe(false);
  });

  it('accepts a last-name-only query for everyone of that name', () => {
    expect(matches(query(undefined, 'Simpson'), contact('Lisa', 'Simpson'))).toBe(true);
    expect(matches(query(undefined, 'Simpson'), contact('Ned', 'Flanders'))).toBe(false);
  });

  describe('units', () => {
    const flat = (street: string) => contact('Homer', 'Simpson', street);
    it('rewards the same unit, however written', () => {
      const score = scoreCandidate(
        query('Homer', 'Simpson', '742 Evergreen Ter Apt 2'),
        flat('742 Evergreen Terrace #2'),
      );
      expect(score.reasons).toContain('unit_exact');
      expect(score.confidence).toBeGreaterThanOrEqual(MATCH_THRESHOLD);
    });

    it('tolerates a unit given on one side only', () => {
      const missing = scoreCandidate(query('Homer', 'Simpson'), flat('742 Evergreen Ter Apt 2'));
      expect(missing.reasons).toContain('unit_record_only');
      expect(missing.confidence).toBeGreaterThanOrEqual(MATCH_THRESHOLD);
      const extra = scoreCandidate(query('Homer', 'Simpson', '742 Evergreen Ter Apt 2'), flat('742 Evergreen Ter'));
      expect(extra.reasons).toContain('unit_query_only');
      expect(extra.confidence).toBeGreaterThanOrEqual(MATCH_THRESHOLD);
    });

    it('rejects a different unit, even with the right name', () => {
      const score = scoreCandidate(
        query('Homer', 'Simpson', '742 Evergreen Ter Apt 3'),
        flat('742 Evergreen Ter Apt 2'),
      );
      expect(score.reasons).toContain('unit_different');
      expect(score.confidence).toBeLessThan(MATCH_THRESHOLD);
    });
  });
});

describe('rankCandidates', () => {
  const household = [
    contact('Marge', 'Simpson'),
    contact('Homer', 'Simpson'),
    contact('Bartholomew', 'Simpson'),
    contact('Ned', 'Flanders', '744 Evergreen Ter'),
  ];

  it('returns only the asked-for person, with reasons', () => {
    const ranked = rankCandidates(query('Homer', 'Simpson'), household);
    expect(ranked.map((r) => r.candidate.firstName)).toEqual(['Homer']);
    expect(ranked[0]?.reasons).toEqual(['address_exact', 'last_name_exact', 'first_name_exact']);
  });

  it('returns the whole household, in input order, when no name is given', () => {
    const ranked = rankCandidates(query(), household);
    expect(ranked.map((r) => r.candidate.firstName)).toEqual(['Marge', 'Homer', 'Bartholomew']);
  });

  it('lets two people of one household compete: only the better one can match', () => {
    const twins = [contact('John', 'Smith'), contact('Joan', 'Smith')];
    expect(rankCandidates(query('John', 'Smith'), twins).map((r) => r.candidate.firstName)).toEqual(['John']);
    expect(rankCandidates(query('Joan', 'Smith'), twins).map((r) => r.candidate.firstName)).toEqual(['Joan']);
  });

  it('returns nobody for a person who is not there', () => {
    expect(rankCandidates(query('Moe', 'Szyslak'), household)).toEqual([]);
  });
});
