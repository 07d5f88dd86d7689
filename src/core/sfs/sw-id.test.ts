import { describe, expect, it } from 'vitest';
import { swId } from './sw-id.js';

describe('SwId', () => {
  it('reproduces the spec example (UTF-8)', () => {
    expect(
      swId({
        manufacturer: 'Názov spoločnosti a.s.',
        product: 'Názov PPEKK',
        chduName: 'Názov CHDÚ',
        version: 'v1.2.33',
        chduVersion: 'v3.2.11',
      }),
    ).toBe('8639BA17A8EEEF50FF559B90D36AE13B5E93DCDE');
  });
});
