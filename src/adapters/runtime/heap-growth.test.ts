import { describe, expect, it } from 'vitest';
import { boundHeapGrowth, HEAP_GROWING_PERCENT } from './heap-growth.js';

describe('boundHeapGrowth (ADR 1112)', () => {
  it('sets V8 heap growing factor to 1.5 (50 %), below the up-to-4 V8 picks by itself', () => {
    const flags: string[] = [];
    boundHeapGrowth((f) => flags.push(f));
    expect(HEAP_GROWING_PERCENT).toBe(50);
    expect(flags).toEqual(['--heap-growing-percent=50']);
  });
});
