import { describe, expect, it } from '@jest/globals';
import { batchSubmit } from '../src/commands/batch.ts';
import { importCommand, importPropertiesCommand } from '../src/commands/import.ts';
import { UsageError } from '../src/command.ts';
import { capture } from './capture.ts';
import { mapQuery, mapRecord } from '../src/map-option.ts';

describe('--map field=Header', () => {
  it('is one option, the same in batch submit, import and import-properties', () => {
    expect(batchSubmit.options.map).toBeDefined();
    expect(importCommand.options.map).toEqual(batchSubmit.options.map);
    expect(importPropertiesCommand.options.map).toEqual(batchSubmit.options.map);
    expect(batchSubmit.options.map!.value).toBe('FIELD=Header,…');
  });

  it('reads field=Header pairs: the API query of batch submit, the map of an import', () => {
    const err = capture();
    expect(mapQuery({ map: 'street_address=Site Addr,owner_name=Owner 1 Name' }, err.stream)).toBe(
      'street_address=Site Addr,owner_name=Owner 1 Name',
    );
    expect(mapRecord({ map: 'street_address=Situs, phone_1 = Tel A' }, err.stream)).toEqual({
      street_address: 'Situs',
      phone_1: 'Tel A',
    });
    expect(err.text()).toBe('');
    expect(mapQuery({}, err.stream)).toBeUndefined();
    expect(mapRecord({}, err.stream)).toBeUndefined();
  });

  it('still reads the old field:Header, with a deprecation warning, in every command', () => {
    const err = capture();
    expect(mapQuery({ map: 'zip_code:Postal,city=Town' }, err.stream)).toBe('zip_code=Postal,city=Town');
    expect(err.text()).toBe('warning: --map zip_code:Postal: field:Header is deprecated; write field=Header\n');
    expect(mapRecord({ map: 'phone_1:Tel' }, err.stream)).toEqual({ phone_1: 'Tel' });
    expect(err.text()).toContain('--map phone_1:Tel: field:Header is deprecated');
  });

  it('splits at the first = (a header may hold : or =), and refuses a pair without both sides', () => {
    const err = capture();
    expect(mapQuery({ map: 'apn=Parcel: ID' }, err.stream)).toBe('apn=Parcel: ID');
    expect(mapRecord({ map: 'owner_name=Owner=1' }, err.stream)).toEqual({ owner_name: 'Owner=1' });
    expect(err.text()).toBe('');
    for (const bad of ['nonsense', '=Zip', 'zip_code=', 'zip_code:', ':Zip'])
      expect(() => mapQuery({ map: bad }, err.stream)).toThrow(
        new UsageError(`--map: expected field=Header, got "${bad}"`),
      );
  });
});
