import { describe, expect, it } from '@jest/globals';
import { normalizePhone, STATE_NAMES } from '@skiptrace/matching';
import { DEMO_PLACES } from '../src/places.ts';

describe('demo places', () => {
  it('has ~100 consistent city/state/ZIP/area-code rows whose fictional numbers are valid', () => {
    expect(DEMO_PLACES.length).toBeGreaterThanOrEqual(100);
    for (const place of DEMO_PLACES) {
      expect(STATE_NAMES.has(place.state)).toBe(true);
      expect(place.zip5).toMatch(/^\d{5}$/);
      expect(normalizePhone(`${place.areaCode}-555-0100`)).toBe(`+1${place.areaCode}5550100`);
    }
  });
});
