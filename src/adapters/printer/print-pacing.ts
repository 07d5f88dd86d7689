import type { PrintOptions } from '../../core/ports/receipt-printer.js';

/** Waits; tests pass a recording fake so pacing is checked without timing. */
export type Sleep = (ms: number) => Promise<void>;

export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Largest pause one window may ask for: a POS typo must not stall the printer for an hour. */
export const MAX_PRINT_DELAY_MS = 60_000;

/**
 * The API text's Printer `windowSize` / `printDelay` (docs/printing.md): a long job goes out in
 * windows of at most `windowSize` bytes of printer data — cut only between printed units, so a
 * window never splits a line or an image — with `printDelay` ms between two windows, so a thermal
 * head cools down. Absent or 0: one window.
 */
export class PrintPacer {
  private inWindow = 0;
  private readonly windowSize: number;
  private readonly delayMs: number;

  constructor(
    options: PrintOptions | undefined,
    private readonly sleep: Sleep,
  ) {
    this.windowSize = Math.max(0, Math.floor(options?.windowSize ?? 0));
    this.delayMs = Math.min(MAX_PRINT_DELAY_MS, Math.max(0, Math.floor(options?.printDelay ?? 0)));
  }

  /** Before sending a unit of `size` bytes: pauses when it would overflow the current window. */
  async before(size: number): Promise<void> {
    if (this.windowSize > 0 && this.inWindow > 0 && this.inWindow + size > this.windowSize) {
      if (this.delayMs > 0) await this.sleep(this.delayMs);
      this.inWindow = 0;
    }
    this.inWindow += size;
  }
}
