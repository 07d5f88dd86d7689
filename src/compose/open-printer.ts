import { join } from 'node:path';
import { NoPrinter } from '../adapters/printer/no-printer.js';
import { VirtualPrinter } from '../adapters/printer/virtual-printer.js';
import { describePrinterTarget, type PrinterTarget } from '../config/targets.js';
import { UsageError } from '../config/usage-error.js';
import type { ReceiptPrinter } from '../core/ports/receipt-printer.js';

export interface OpenPrinterOptions {
  /** The register's data dir: the virtual printer keeps its jobs under it. */
  dataDir: string;
}

/**
 * The one place a `--printer` target becomes a `ReceiptPrinter` adapter. A target without an
 * adapter is a {@link UsageError} (exit 2, DECISIONS 12): never a silent fallback to another printer.
 */
export function openPrinter(target: PrinterTarget, options: OpenPrinterOptions): ReceiptPrinter {
  switch (target.kind) {
    case 'virtual':
      return new VirtualPrinter({ dir: join(options.dataDir, 'virtual-printer') });
    case 'none':
      return new NoPrinter();
    case 'tcp':
    case 'serial':
    case 'chdu':
      throw new UsageError(
        `--printer ${describePrinterTarget(target)}: this printer adapter is not available in this version (use virtual or none)`,
      );
    default:
      return unreachable(target);
  }
}

function unreachable(target: never): never {
  throw new Error(`unknown printer target ${JSON.stringify(target)}`);
}
