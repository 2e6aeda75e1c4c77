import { describe, expect, it } from '@jest/globals';
import {
  MATCH_THRESHOLD,
  buildMatchQuery,
  candidateKeys,
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
): CandidateRecord {
  return { first_name, last_name, ...candidateKeys(standardizeAddress({ street_address, ...home })) };
}

const query = (first_name?: string, last_name?: string, street_address = '742 evergreen terrace') =>
  buildMatchQuery({ street_address, ...home, first_name, last_name });

describe('scoreCandidate', () => {
  it('finds nothing at another address, however good the name', () => {
    expect(scoreCandidate(query('Homer', 'Simpson'), contact('Homer', 'Simpson', '744 Evergreen Ter'))).toEqual({
      confidence: 0,
      reasons: ['address_mismatch'],
    });
  });

  it('refuses a query without house number, street or ZIP', () => {
    const noZip = buildMatchQuery({
      street_address: '742 Evergreen Ter',
      city: 'Springfield',
      state: 'IL',
      zip_code: '',
    });
    expect(scoreCandidate(noZip, contact('Homer', 'Simpson')).reasons).toEqual(['address_incomplete']);
  });

  it('gives every household member the address-only confidence when no name is asked', () => {
    const score = scoreCandidate(query(), contact('Marge', 'Simpson'));
    expect(score).toEqual({ confidence: 0.7, reasons: ['address_exact', 'name_absent'] });
    expect(score.confidence).toBeGreaterThanOrEqual(MATCH_THRESHOLD);
  });

  it.each([
    ['exact', 'Homer', 'Simpson', 0.97, 'first_name_exact'],
    ['nickname', 'Bart', 'Simpson', 0.95, 'first_name_nickname'],
    ['typo', 'Hmoer', 'Simpson', 0.92, 'first_name_typo'],
    ['initial', 'H', 'Simpson', 0.9, 'first_name_initial'],
    ['last-name typo', 'Homer', 'Simpsen', 0.9, 'last_name_typo'],
  ])('a good name match (%s) scores 0.9+', (_, first, last, confidence, reason) => {
    const candidate = contact(first === 'Bart' ? 'Bartholomew' : 'Homer', 'Simpson');
    const score = scoreCandidate(query(first, last), candidate);
    expect(score.confidence).toBe(confidence);
    expect(score.reasons).toContain(reason);
  });

  it('puts another household member below the threshold when the first name differs', () => {
    const score = scoreCandidate(query('Homer', 'Simpson'), contact('Marge', 'Simpson'));
    expect(score.reasons).toEqual(['address_exact', 'last_name_exact', 'first_name_mismatch']);
    expect(score.confidence).toBeLessThan(MATCH_THRESHOLD);
  });

  it('puts a different last name below the threshold', () => {
    expect(scoreCandidate(query('Homer', 'Simpson'), contact('Homer', 'Flanders')).confidence).toBeLessThan(
      MATCH_THRESHOLD,
    );
  });

  it('accepts a last-name-only query for everyone of that name', () => {
    expect(scoreCandidate(query(undefined, 'Simpson'), contact('Lisa', 'Simpson')).confidence).toBe(0.85);
  });

  describe('units', () => {
    const flat = (street: string) => contact('Homer', 'Simpson', street);
    it('rewards the same unit, however written', () => {
      const score = scoreCandidate(
        query('Homer', 'Simpson', '742 Evergreen Ter Apt 2'),
        flat('742 Evergreen Terrace #2'),
      );
      expect(score.reasons).toContain('unit_match');
      expect(score.confidence).toBe(1);
    });

    it('tolerates a unit given on one side only', () => {
      const score = scoreCandidate(query('Homer', 'Simpson'), flat('742 Evergreen Ter Apt 2'));
      expect(score.reasons).toContain('unit_missing');
      expect(score.confidence).toBe(0.92);
    });

    it('rejects a different unit, even with the right name', () => {
      const score = scoreCandidate(
        query('Homer', 'Simpson', '742 Evergreen Ter Apt 3'),
        flat('742 Evergreen Ter Apt 2'),
      );
      expect(score.reasons).toContain('unit_mismatch');
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
    expect(ranked.map((r) => r.candidate.first_name)).toEqual(['Homer']);
    expect(ranked[0]?.reasons).toEqual(['address_exact', 'last_name_exact', 'first_name_exact']);
  });

  it('returns the whole household, in input order, when no name is given', () => {
    const ranked = rankCandidates(query(), household);
    expect(ranked.map((r) => r.candidate.first_name)).toEqual(['Marge', 'Homer', 'Bartholomew']);
  });

  it('sorts by confidence', () => {
    const ranked = rankCandidates(query('Bart', 'Simpson'), [
      contact('Bart', 'Simpson'),
      contact('Bartholomew', 'Simpson'),
      contact('B', 'Simpson'),
    ]);
    expect(ranked.map((r) => r.confidence)).toEqual([0.97, 0.95, 0.9]);
  });

  it('returns nobody for a person who is not there', () => {
    expect(rankCandidates(query('Moe', 'Szyslak'), household)).toEqual([]);
  });
});
