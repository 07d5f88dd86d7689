import type { PrinterProfile } from '../config/printer-profile.js';
import type {
  PrinterStatus,
  PrintJob,
  PrintOptions,
  PrintOutcome,
  ReceiptPrinter,
} from '../core/ports/receipt-printer.js';
import { Swappable } from './swappable.js';

/** The printer with the profile it was opened with. */
export interface OpenedPrinter {
  printer: ReceiptPrinter;
  profile: PrinterProfile;
}

/**
 * The register's printer as every use case sees it: a {@link ReceiptPrinter} whose adapter the
 * settings can replace between requests (ADR 1003), and which adds the default print pacing
 * (settings `printWindowSize`, `printDelay`) to jobs whose request did not pace them.
 */
export class SwappablePrinter implements ReceiptPrinter {
  readonly #holder: Swappable<ReceiptPrinter>;
  #profile: PrinterProfile;

  constructor(
    opened: OpenedPrinter,
    private readonly defaults: () => PrintOptions = () => ({}),
  ) {
    this.#holder = new Swappable(opened.printer);
    this.#profile = opened.profile;
  }

  get target(): string {
    return this.#holder.current.target;
  }

  get charsPerLine(): number {
    return this.#holder.current.charsPerLine;
  }

  /** The profile of the printer new jobs go to (paper width for electronic receipts and logos). */
  get profile(): PrinterProfile {
    return this.#profile;
  }

  /** The adapter new jobs go to (tests reach the virtual printer through it). */
  get current(): ReceiptPrinter {
    return this.#holder.current;
  }

  print(job: PrintJob, options?: PrintOptions): Promise<PrintOutcome> {
    const paced = withDefaults(options, this.defaults());
    return this.#holder.use((p) => p.print(job, paced));
  }

  /**
   * Never waits for a job (ADR 0514), not even one on a printer the settings just replaced: while
   * that one still prints, its status answers, marked busy.
   */
  status(): Promise<PrinterStatus> {
    return this.#holder.peek(async (p, retiring) => {
      const status = await p.status();
      return retiring ? { ...status, busy: true } : status;
    });
  }

  openDrawer(pin?: 2 | 5): Promise<void> {
    return this.#holder.use((p) => p.openDrawer(pin));
  }

  /** Makes `next` the printer; the old one is closed once its jobs in flight have ended. */
  swap(next: OpenedPrinter): void {
    this.#holder.swap(next.printer);
    this.#profile = next.profile;
  }

  close(): Promise<void> {
    return this.#holder.close();
  }
}

/** The request's pacing where it gives one, else the configured default (0 = none). */
export function withDefaults(
  options: PrintOptions | undefined,
  defaults: PrintOptions,
): PrintOptions | undefined {
  const windowSize = options?.windowSize ?? (defaults.windowSize || undefined);
  const printDelay = options?.printDelay ?? (defaults.printDelay || undefined);
  if (windowSize === undefined && printDelay === undefined) return options;
  return {
    ...options,
    ...(windowSize === undefined ? {} : { windowSize }),
    ...(printDelay === undefined ? {} : { printDelay }),
  };
}
