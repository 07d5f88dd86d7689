import type { PrintOptions } from '../../core/ports/receipt-printer.js';
import { PacingPlan } from '../../core/printing/print-pacing.js';

/** Waits; tests pass a recording fake so pacing is checked without timing. */
export type Sleep = (ms: number) => Promise<void>;

export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The API text's Printer `windowSize` / `printDelay` for one job (docs/printing.md, ADR 0516):
 * the job goes out in windows — cut only between printed units, so a window never splits a line
 * or an image — with `printDelay` ms between two windows, so a thermal head cools down; the
 * pauses of one job add up to at most two minutes ({@link PacingPlan}).
 */
export class PrintPacer {
  private readonly plan: PacingPlan;

  constructor(
    totalBytes: number,
    options: PrintOptions | undefined,
    private readonly sleep: Sleep,
  ) {
    this.plan = new PacingPlan(totalBytes, options);
  }

  /** The window in force (0: one window). */
  get windowSize(): number {
    return this.plan.windowSize;
  }

  /** Before sending a unit of `size` bytes: pauses when it would overflow the current window. */
  async before(size: number): Promise<void> {
    const ms = this.plan.before(size);
    if (ms > 0) await this.sleep(ms);
  }
}
