import { describe, expect, it } from '@jest/globals';
import { API_VERSION } from '../src/index.ts';

describe('contracts', () => {
  it('is version 1.0.0', () => {
    expect(API_VERSION).toBe('1.0.0');
  });
});
