import { Writable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import { mapOption } from '../src/commands/batch.ts';
import { UsageError } from '../src/command.ts';

/** A stderr that keeps what is written. */
function capture() {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

describe('batch submit --map', () => {
  it('is field=Header, as every command that maps columns', () => {
    const err = capture();
    expect(mapOption({ map: 'street_address=Site Addr,owner_name=Owner 1 Name' }, err.stream)).toBe(
      'street_address=Site Addr,owner_name=Owner 1 Name',
    );
    expect(err.text()).toBe('');
    expect(mapOption({}, err.stream)).toBeUndefined();
  });

  it('still reads the old field:Column, with a deprecation warning', () => {
    const err = capture();
    expect(mapOption({ map: 'zip_code:Postal,city=Town' }, err.stream)).toBe('zip_code=Postal,city=Town');
    expect(err.text()).toContain('field:Column is deprecated; write field=Column');
    // A header holding a colon after the = stays whole.
    expect(mapOption({ map: 'apn=Parcel: ID' }, err.stream)).toBe('apn=Parcel: ID');
    expect(() => mapOption({ map: 'nonsense' }, err.stream)).toThrow(UsageError);
  });
});
