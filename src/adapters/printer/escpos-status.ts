import type { PrinterFault, PrinterStatus } from '../../core/ports/receipt-printer.js';

/**
 * The four DLE EOT real-time status bytes (Epson layout, which ESC/POS printers follow):
 * n=1 printer (0x08 off-line), n=2 off-line cause (0x04 cover open, 0x20 stopped at paper end,
 * 0x40 error), n=3 error cause (0x08 cutter, 0x20 unrecoverable, 0x40 auto-recoverable such as
 * head overheat), n=4 roll sensor (0x0C near end, 0x60 paper end). Bits 1 and 4 are always set,
 * bits 0 and 7 never: a byte without that pattern is garbled (103).
 */
export interface RealTimeStatus {
  printer: number;
  offline?: number;
  error?: number;
  paper?: number;
}

export const DLE_EOT = (n: 1 | 2 | 3 | 4): Uint8Array => Uint8Array.of(0x10, 0x04, n);

/** The fixed bits of every DLE EOT answer are right. */
export function isStatusByte(b: number): boolean {
  return (b & 0x93) === 0x12;
}

export function isOffline(printerByte: number): boolean {
  return (printerByte & 0x08) !== 0;
}

/**
 * ADR 0506: paper end → 105; cover open, head overheated, cutter or other error, or off-line for
 * another reason → 100. Connection problems (102, 103) are decided by the transport, not here.
 */
export function faultOf(s: RealTimeStatus): PrinterFault | undefined {
  if (((s.paper ?? 0) & 0x60) !== 0 || ((s.offline ?? 0) & 0x20) !== 0) return 'PRINTER_NO_PAPER';
  if (((s.offline ?? 0) & 0x04) !== 0) return 'PRINTER_NOT_READY';
  if (((s.error ?? 0) & 0x68) !== 0) return 'PRINTER_NOT_READY';
  if (isOffline(s.printer) || ((s.offline ?? 0) & 0x40) !== 0) return 'PRINTER_NOT_READY';
  return undefined;
}

export function paperOf(s: RealTimeStatus): PrinterStatus['paper'] {
  if (s.paper === undefined) return 'unknown';
  if ((s.paper & 0x60) !== 0) return 'out';
  if ((s.paper & 0x0c) !== 0) return 'near-end';
  return 'ok';
}

/** Words for a fault, for the error sentence and the log. */
export function describeStatus(s: RealTimeStatus): string {
  const parts: string[] = [];
  if (((s.paper ?? 0) & 0x60) !== 0 || ((s.offline ?? 0) & 0x20) !== 0) parts.push('paper out');
  if (((s.offline ?? 0) & 0x04) !== 0) parts.push('cover open');
  if (((s.error ?? 0) & 0x40) !== 0) parts.push('overheated or another recoverable error');
  if (((s.error ?? 0) & 0x20) !== 0) parts.push('unrecoverable error');
  if (((s.error ?? 0) & 0x08) !== 0) parts.push('cutter error');
  if (parts.length === 0 && isOffline(s.printer)) parts.push('off-line');
  return parts.join(', ') || 'ready';
}
