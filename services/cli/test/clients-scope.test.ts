import { describe, expect, it } from '@jest/globals';
import { scopeOption } from '../src/commands/clients.ts';
import { UsageError } from '../src/command.ts';
import { capture } from './capture.ts';

describe('clients create --scope', () => {
  it('defaults to what a trace needs, read write, and says so', () => {
    const err = capture();
    expect(scopeOption({}, err.stream)).toBe('read write');
    expect(err.text()).toContain('scopes: read write (the default: what a trace needs; --scope to choose)');
  });

  it('takes the scopes chosen, by spaces or commas; --scopes is the older name', () => {
    const err = capture();
    expect(scopeOption({ scope: 'read' }, err.stream)).toBe('read');
    expect(scopeOption({ scope: 'read,write admin' }, err.stream)).toBe('read write admin');
    expect(scopeOption({ scopes: 'write' }, err.stream)).toBe('write');
    expect(err.text()).toBe('');
  });

  it('refuses an unknown or empty scope before anything is created', () => {
    const err = capture();
    expect(() => scopeOption({ scope: 'read superuser' }, err.stream)).toThrow(
      new UsageError('--scope: unknown scope superuser (scopes: read, write, admin)'),
    );
    expect(() => scopeOption({ scope: ' , ' }, err.stream)).toThrow(UsageError);
  });
});
