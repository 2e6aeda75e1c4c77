import { describe, expect, it } from '@jest/globals';
import { assertUsable, ImportFormatError, resolveColumns } from '../src/columns.ts';

describe('resolveColumns', () => {
  it('recognises canonical names', () => {
    const headers = [
      'street_address',
      'city',
      'state',
      'zip_code',
      'first_name',
      'last_name',
      'phone_1',
      'phone_1_type',
      'phone_2',
      'email_1',
    ];
    expect(resolveColumns(headers)).toEqual({
      fields: { street_address: 0, city: 1, state: 2, zip_code: 3, first_name: 4, last_name: 5 },
      phones: [
        { number: 6, type: 7 },
        { number: 8, type: undefined },
      ],
      emails: [9],
    });
  });

  it('recognises vendor aliases whatever the case, spaces and underscores', () => {
    const headers = [
      'Property Address',
      'CITY',
      'St',
      'Postal Code',
      'Owner First Name',
      'owner_last_name',
      'Mobile',
      'Phone 2',
      'Phone Type 2',
      'Email Address',
    ];
    const layout = resolveColumns(headers);
    expect(layout.fields).toEqual({ street_address: 0, city: 1, state: 2, zip_code: 3, first_name: 4, last_name: 5 });
    // A typed column takes the lowest phone number left free ("Mobile" becomes phone_1).
    expect(layout.phones).toEqual([
      { number: 6, impliedType: 'mobile', type: undefined },
      { number: 7, type: 8 },
    ]);
    expect(layout.emails).toEqual([9]);
  });

  it('maps ZIP5, Zip and Address, and Cell/Landline as typed phones', () => {
    const layout = resolveColumns(['Address', 'City', 'State', 'ZIP5', 'Cell', 'Landline']);
    expect(layout.fields.zip_code).toBe(3);
    expect(layout.phones).toEqual([
      { number: 4, impliedType: 'mobile', type: undefined },
      { number: 5, impliedType: 'landline', type: undefined },
    ]);
  });

  it('lets --map override the aliases', () => {
    const layout = resolveColumns(['Address', 'Situs Address', 'City', 'State', 'Zip', 'Tel A'], {
      street_address: 'Situs Address',
      phone_1: 'Tel A',
    });
    expect(layout.fields.street_address).toBe(1);
    expect(layout.phones).toEqual([{ number: 5, type: undefined }]);
  });

  it('rejects a map naming an unknown canonical column or a missing header', () => {
    expect(() => resolveColumns(['a'], { street: 'a' })).toThrow(ImportFormatError);
    expect(() => resolveColumns(['a'], { street_address: 'nope' })).toThrow(/no column "nope"/);
  });

  it('fails fast when address parts or phones have no column', () => {
    const headers = ['Address', 'City', 'Zip', 'Name'];
    expect(() => assertUsable(resolveColumns(headers), headers)).toThrow(/state, phone_1/);
  });
});
