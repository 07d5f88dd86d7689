import type { PrintOptions } from '../ports/receipt-printer.js';

/**
 * Bounds of the API text's print pacing (Printer `windowSize`, `printDelay`; ADR 0516). They bound
 * the work one request can cause: a print holds the printer, and on store, cash and the printed
 * report the one-writer lock, for its pauses too.
 */
/** The smallest window: a few receipt lines. Smaller ones only multiply pauses and CHDÚ records. */
export const MIN_WINDOW_BYTES = 256;
/** The longest pause between two windows: a thermal head cools in well under that. */
export const MAX_PRINT_DELAY_MS = 10_000;
/** The most one job (or one printed report) may pause in all: windows widen to stay within it. */
export const MAX_PAUSE_PER_JOB_MS = 120_000;

/**
 * How one job of `totalBytes` bytes is paced: windows of at least `windowSize` bytes, cut only
 * between units (a line, a picture), with `printDelay` between two of them. Absent or 0 either:
 * one window, no pause. When the pauses the caller asked for would add up to more than
 * {@link MAX_PAUSE_PER_JOB_MS}, the windows are widened so they do not (the job is only known once
 * encoded, after the fiscal write: refusing then would leave a stored document unprinted); and
 * whatever the units' sizes, the pauses of one plan never exceed that total.
 */
export class PacingPlan {
  /** The window in force (0: one window). */
  readonly windowSize: number;
  readonly delayMs: number;
  private inWindow = 0;
  private paused = 0;

  constructor(totalBytes: number, options: PrintOptions | undefined) {
    const asked = Math.floor(options?.windowSize ?? 0);
    const delay = Math.min(MAX_PRINT_DELAY_MS, Math.max(0, Math.floor(options?.printDelay ?? 0)));
    this.delayMs = delay;
    if (asked <= 0 || delay === 0) {
      this.windowSize = 0;
      return;
    }
    const size = Math.max(asked, MIN_WINDOW_BYTES);
    const maxPauses = Math.floor(MAX_PAUSE_PER_JOB_MS / delay);
    const wanted = Math.ceil(totalBytes / size) - 1;
    this.windowSize = wanted > maxPauses ? Math.ceil(totalBytes / (maxPauses + 1)) : size;
  }

  /** Before a unit of `size` bytes: how long to pause first (0: none). */
  before(size: number): number {
    let pause = 0;
    if (this.windowSize > 0 && this.inWindow > 0 && this.inWindow + size > this.windowSize) {
      this.inWindow = 0;
      if (this.paused + this.delayMs <= MAX_PAUSE_PER_JOB_MS) {
        this.paused += this.delayMs;
        pause = this.delayMs;
      }
    }
    this.inWindow += size;
    return pause;
  }

  /** Pauses planned so far, ms. */
  get totalPause(): number {
    return this.paused;
  }
}
