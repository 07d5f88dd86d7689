import type { ByteReader } from '../transport/byte-reader.js';
import { isStatusByte } from './escpos-status.js';

/** Bytes from the printer that are neither a status byte nor a process-ID answer. */
export class Garbled extends Error {}

/**
 * One answer of an ESC/POS printer: a real-time status byte (DLE EOT n: fixed bits 0x12) or a
 * process-ID answer (`GS ( H` fn 48: `37 22 d1 d2 d3 d4 00`, sent once everything before the
 * request is printed). The header 0x37 has bit 0 set, so it is never taken for a status byte.
 */
export type PrinterAnswer = { kind: 'status'; byte: number } | { kind: 'printed'; id: string };

export async function readAnswer(
  reader: ByteReader,
  timeoutMs: number,
  what: string,
): Promise<PrinterAnswer> {
  const b = await reader.readByte(timeoutMs, what);
  if (b === 0x37) {
    const rest = await reader.readBytes(6, timeoutMs, `${what} (process ID)`);
    if (rest[0] !== 0x22 || rest[5] !== 0) throw new Garbled(`${what}: a broken process-ID answer`);
    return { kind: 'printed', id: String.fromCharCode(...rest.subarray(1, 5)) };
  }
  if (!isStatusByte(b)) throw new Garbled(`${what} answered 0x${b.toString(16)}`);
  return { kind: 'status', byte: b };
}
