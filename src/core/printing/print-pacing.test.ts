import { describe, expect, it } from 'vitest';
import { MAX_PAUSE_PER_JOB_MS, MAX_PRINT_DELAY_MS, MIN_WINDOW_BYTES, PacingPlan } from './print-pacing.js';

/** The pauses a plan asks for over a job of `units` units of `size` bytes each. */
function pauses(plan: PacingPlan, units: number, size: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < units; i++) {
    const ms = plan.before(size);
    if (ms > 0) out.push(ms);
  }
  return out;
}

describe('PacingPlan (ADR 0516)', () => {
  it('no windowSize or no printDelay: one window, no pause', () => {
    expect(pauses(new PacingPlan(10_000, undefined), 100, 100)).toEqual([]);
    expect(pauses(new PacingPlan(10_000, { windowSize: 500 }), 100, 100)).toEqual([]);
    expect(pauses(new PacingPlan(10_000, { printDelay: 500 }), 100, 100)).toEqual([]);
  });

  it('pauses printDelay between windows of windowSize bytes (the Dotypay example 2500/5000)', () => {
    const plan = new PacingPlan(10_000, { windowSize: 2500, printDelay: 5000 });
    expect(plan.windowSize).toBe(2500);
    expect(pauses(plan, 100, 100)).toEqual([5000, 5000, 5000]);
  });

  it('a window is never below MIN_WINDOW_BYTES, a pause never above MAX_PRINT_DELAY_MS', () => {
    const plan = new PacingPlan(1000, { windowSize: 1, printDelay: 60_000 });
    expect(plan.windowSize).toBe(MIN_WINDOW_BYTES);
    expect(plan.delayMs).toBe(MAX_PRINT_DELAY_MS);
  });

  it('windows widen so that the pauses of one job stay within two minutes', () => {
    const total = 1_000_000;
    const plan = new PacingPlan(total, { windowSize: 256, printDelay: 10_000 });
    expect(plan.windowSize).toBeGreaterThan(256);
    const asked = pauses(plan, total / 100, 100);
    expect(asked.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(MAX_PAUSE_PER_JOB_MS);
    expect(asked.length).toBe(MAX_PAUSE_PER_JOB_MS / 10_000);
  });

  it('however the units fall, the total never exceeds the bound (units larger than a window)', () => {
    const plan = new PacingPlan(5000, { windowSize: 256, printDelay: 1000 });
    const asked = pauses(plan, 1000, 300); // 300 kB through a plan made for 5 kB
    expect(asked.reduce((a, b) => a + b, 0)).toBe(MAX_PAUSE_PER_JOB_MS);
    expect(plan.totalPause).toBe(MAX_PAUSE_PER_JOB_MS);
  });
});
