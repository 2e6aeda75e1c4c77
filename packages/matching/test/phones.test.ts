import { describe, expect, it } from '@jest/globals';
import { normalizePhone, phoneType } from '../src/index.ts';

describe('normalizePhone', () => {
  it.each([
    ['(415) 555-2671', '+14155552671'],
    ['415.555.2671', '+14155552671'],
    ['1-415-555-2671', '+14155552671'],
    ['+1 (415) 555-2671', '+14155552671'],
    ['4155552671', '+14155552671'],
    ['707.823.1234 ext 12', '+17078231234'],
    ['1-800-275-8777', '+18002758777'],
    ['+44 20 7946 0958', '+442079460958'],
  ])('%s → %s', (raw, e164) => {
    expect(normalizePhone(raw)).toBe(e164);
  });

  it('accepts the NANP fictional range 555-0100…0199 used by the demo data', () => {
    expect(normalizePhone('(212) 555-0100')).toBe('+12125550100');
    expect(normalizePhone('312-555-0199')).toBe('+13125550199');
    expect(normalizePhone('+1 787 555 0142')).toBe('+17875550142');
  });

  it.each([
    ['(312) 123-4567', 'exchange starting with 1'],
    ['(555) 555-0100', 'area code 555'],
    ['(911) 555-0100', 'N11 area code'],
    ['555-1234', 'seven digits'],
    ['12345', 'too short'],
    ['not a phone', 'no digits'],
    ['', 'empty'],
  ])('rejects %s (%s)', (raw) => {
    expect(normalizePhone(raw)).toBeNull();
  });

  it('rejects null and undefined', () => {
    expect(normalizePhone(null)).toBeNull();
    expect(normalizePhone(undefined)).toBeNull();
  });

  it('uses the default country for national numbers', () => {
    expect(normalizePhone('020 7946 0958', 'GB')).toBe('+442079460958');
  });
});

describe('phoneType', () => {
  it.each([
    ['mobile', 'mobile'],
    ['Cell', 'mobile'],
    ['WIRELESS', 'mobile'],
    ['landline', 'landline'],
    ['Land Line', 'landline'],
    ['fixed-line', 'landline'],
    ['VoIP', 'voip'],
    ['Non-Fixed VoIP', 'voip'],
    ['pager', 'unknown'],
    ['', 'unknown'],
  ])('%s → %s', (label, type) => {
    expect(phoneType(label)).toBe(type);
  });

  it('is unknown without a label: US line type cannot be derived offline', () => {
    expect(phoneType()).toBe('unknown');
    expect(phoneType(null)).toBe('unknown');
  });
});
