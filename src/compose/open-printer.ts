import { join } from 'node:path';
import { ChduPassThroughPrinter } from '../adapters/printer/chdu-pass-through-printer.js';
import { EscPosPrinter } from '../adapters/printer/escpos-printer.js';
import { NoPrinter } from '../adapters/printer/no-printer.js';
import type { Sleep } from '../adapters/printer/print-pacing.js';
import type { ByteTransport } from '../adapters/transport/byte-transport.js';
import { SerialTransport, TcpTransport } from '../adapters/transport/byte-transport.js';
import { DeviceFileTransport } from '../adapters/transport/device-file-transport.js';
import type { ChduTarget } from '../config/targets.js';
import { describePrinterTarget, type PrinterTarget, printerProfileOf } from '../config/targets.js';
import { UsageError } from '../config/usage-error.js';
import type { Chdu } from '../core/ports/chdu.js';
import type { Journal } from '../core/ports/journal.js';
import type { ReceiptPrinter } from '../core/ports/receipt-printer.js';
import { VirtualPrinter } from '../simulators/printer/virtual-printer.js';

export interface OpenPrinterOptions {
  /** The register's data dir: the virtual printer keeps its jobs under it. */
  dataDir: string;
  /** `--printer chdu`: the opened CHDÚ and the journal its print records go through. */
  chdu?: { chdu: Chdu; journal: Journal };
  /** Limit for the first connection to a TCP, serial or USB printer (default 3000 ms). */
  connectTimeoutMs?: number;
  /**
   * Do not open a device printer's line now: the adapter opens it on first use, as after a drop.
   * For a printer the settings name at start that is switched off, and for a profile change on
   * the same printer while the old adapter still holds the line (ADR 1003).
   */
  lazy?: boolean;
  /** The pause between print windows (tests: a gate or a recorder; default: a timer). */
  sleep?: Sleep;
}

/**
 * Refuses, before anything is opened, a printer target that can never work with this CHDÚ:
 * `chdu` needs a CHDU Lite (the image-file CHDÚ has no printer behind it). Exit 2 (ADR 0502).
 */
export function checkPrinterTarget(target: PrinterTarget, chdu: ChduTarget): void {
  if (target.kind === 'chdu' && chdu.kind === 'image') {
    throw new UsageError(
      '--printer chdu: the image-file CHDÚ has no printer behind it; use it with --chdu chdu-lite+serial://… or chdu-lite+tcp://…',
    );
  }
}

/**
 * The one place a `--printer` target becomes a `ReceiptPrinter` adapter (exhaustive switch). A
 * device printer's line is opened once here, so a wrong address or a missing device stops the
 * start with exit 2 naming it (ADR 0502: never a silent fallback); a printer that goes away
 * later is a printer error (100–106) on the request that needs it.
 */
export async function openPrinter(
  target: PrinterTarget,
  options: OpenPrinterOptions,
): Promise<ReceiptPrinter> {
  const profile = printerProfileOf(target);
  const name = describePrinterTarget(target);
  switch (target.kind) {
    case 'virtual':
      return new VirtualPrinter({ dir: join(options.dataDir, 'virtual-printer'), profile });
    case 'none':
      return new NoPrinter({ profile });
    case 'tcp':
      return opened(
        new TcpTransport(target.host, target.port, options.connectTimeoutMs ?? 3000),
        'tcp',
        name,
        profile,
        options.sleep,
        options.lazy,
      );
    case 'serial':
      // One unit can be a picture of ~32 KB: at 9600 baud that alone takes 34 s to drain.
      return opened(
        new SerialTransport(target.path, target.baudRate, {
          writeTimeoutMs: Math.max(10_000, Math.ceil((32_768 * 10 * 1000) / target.baudRate) * 2),
        }),
        'serial',
        name,
        profile,
        options.sleep,
        options.lazy,
      );
    case 'usb':
      // A printer takes data only as fast as it prints: a big picture may wait for the mechanism.
      return opened(
        new DeviceFileTransport(target.path, { writeTimeoutMs: 30_000, what: 'a printer device' }),
        'usb',
        name,
        profile,
        options.sleep,
        options.lazy,
      );
    case 'chdu': {
      if (!options.chdu) throw new UsageError('--printer chdu: the CHDÚ must be opened first');
      return new ChduPassThroughPrinter(
        options.chdu.chdu,
        options.chdu.journal,
        profile,
        options.sleep ? { sleep: options.sleep } : {},
      );
    }
    default:
      return unreachable(target);
  }
}

async function opened(
  transport: ByteTransport,
  adapter: string,
  name: string,
  profile: ReturnType<typeof printerProfileOf>,
  sleep: Sleep | undefined,
  lazy = false,
): Promise<ReceiptPrinter> {
  try {
    if (!lazy) await transport.open();
  } catch (e) {
    throw new UsageError(`--printer ${name}: cannot open the printer (${(e as Error).message})`, {
      cause: e,
    });
  }
  return new EscPosPrinter(transport, { adapter, target: name, profile, ...(sleep ? { sleep } : {}) });
}

function unreachable(target: never): never {
  throw new Error(`unknown printer target ${JSON.stringify(target)}`);
}
