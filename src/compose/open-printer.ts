import { join } from 'node:path';
import { PathRefused } from '../adapters/checked-paths.js';
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
  /**
   * `kasa serve` at start (ADR 0502 as amended): a device printer that cannot be reached now —
   * switched off, unplugged, not yet on the network — is kept, its line opened on first use, and
   * this is called with a sentence naming it and the cause. Without it (a settings change) such a
   * printer is refused. A target that can never work is refused either way.
   */
  offline?: (warning: string) => void;
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
 * device printer's line is opened once here: a path that is no printer device, or one kasa may not
 * open, is a `UsageError` naming it (exit 2 at start, ADR 0502: never a silent fallback); a
 * printer merely unreachable now is kept with `offline` (reported, opened on first use) and
 * refused without it. A printer that goes away later is a printer error (100–106) on the request
 * that needs it.
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
        options,
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
        options,
      );
    case 'usb':
      // A printer takes data only as fast as it prints: a big picture may wait for the mechanism.
      return opened(
        new DeviceFileTransport(target.path, { writeTimeoutMs: 30_000, what: 'a printer device' }),
        'usb',
        name,
        profile,
        options,
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
  options: OpenPrinterOptions,
): Promise<ReceiptPrinter> {
  const { sleep, offline } = options;
  try {
    if (!options.lazy) await transport.open();
  } catch (e) {
    const cause = (e as Error).message;
    if (offline === undefined || neverOpens(e)) {
      throw new UsageError(`--printer ${name}: cannot open the printer (${cause})`, { cause: e });
    }
    offline(
      `--printer ${name}: the printer cannot be reached now (${cause}); kasa starts and connects to it on the next print or status query. Documents stored meanwhile answer 507 (not printed): print them with POST /api/document/print once the printer is on`,
    );
  }
  return new EscPosPrinter(transport, { adapter, target: name, profile, ...(sleep ? { sleep } : {}) });
}

/**
 * A failure to open that switching the printer on cannot cure: the path names something that is
 * no printer device (ADR 0426), or kasa's user may not open it (the `lp` or `dialout` group is
 * missing, and a running process does not gain a group). Nothing at the address, no device
 * file (a USB printer switched off takes its device node with it), a device that went away, a
 * timeout: the printer is off, and that can change while kasa runs.
 */
export function neverOpens(e: unknown): boolean {
  if (e instanceof PathRefused) return true;
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EACCES' || code === 'EPERM') return true;
  // serialport reports a failed open as strerror text without a code ("Error: Permission denied,
  // cannot open /dev/ttyUSB0").
  return e instanceof Error && /\b(Permission denied|Operation not permitted)\b/.test(e.message);
}

function unreachable(target: never): never {
  throw new Error(`unknown printer target ${JSON.stringify(target)}`);
}
