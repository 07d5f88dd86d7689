import type { BlockCommand, ChduBlock } from '../../core/ports/chdu.js';
import { type ByteReader, ReadTimeout } from '../transport/byte-reader.js';
import {
  ACK,
  BEL,
  CMD,
  decodeBlockData,
  EC,
  EOT,
  FrameParser,
  NAK,
  NUL,
  type ReadShape,
  STX,
} from './chdu-lite-codec.js';
import { DeviceError, ProtocolError } from './chdu-lite-errors.js';
import { readFrame } from './frame-reader.js';

/** The line as a READ transfer uses it. */
export interface TransferLine {
  readonly reader: ByteReader;
  readonly timeoutMs: number;
  /** Times a damaged block frame is asked again (NAK) before giving up. */
  readonly retries: number;
  send(bytes: Uint8Array): Promise<void>;
}

/** What the driver has seen of the device's READ framing; `unknown` until a transfer shows it. */
export interface ReadWire {
  shape: ReadShape | 'unknown';
}

export interface TransferResult {
  blocks: ChduBlock[];
  /** The spec text's EOT that closes the transfer may still come (not waited for). */
  eotOwed: boolean;
  /**
   * The transfer stopped short with silence while the framing is unknown: the device may have
   * ended it (public driver) or be late (spec text). The caller quiets the line and asks again
   * from the next address; an unwritten one is then answered NAK EC_BLOCK.
   */
  endUncertain?: true;
}

/**
 * The blocks of one READ transfer, after the command's first answer byte `first` (ACK, BEL, NAK
 * or EOT). Two readings of the wire are accepted (ADR 0104 §2, amended); for two blocks, with the
 * host's bytes in ‹›:
 *
 *   spec text:      ACK STX LEN DATA EOT ‹ACK› ACK STX LEN DATA EOT ‹ACK› EOT
 *   public driver:  ACK STX LEN DATA     ‹ACK› ACK STX LEN DATA     ‹ACK› EOT
 *
 * Spec text: each block comes with a lead (ACK, or BEL when its stored CRC fails) and a frame
 * closed by EOT; an EOT alone ends the transfer. Public driver: the first ACK answers the command;
 * a block is STX LEN DATA, and after the host's ACK comes its end byte — ACK (CRC fine, more
 * follow), BEL (its CRC fails) or EOT (CRC fine, the last one). So a frame's payload is read by
 * LEN, answered ACK, and only then is the next byte read: ACK or BEL there is the public end byte,
 * EOT is the spec text's frame end or the public last block. Nothing is waited for that one
 * reading never sends, except once: an EOT before the count while the shape is still unknown
 * (spec text: the next lead follows; public driver: the device stopped early) waits at most 1 s,
 * and silence then ends the transfer as uncertain rather than guess the shape.
 * Once a device has shown its shape (`wire`), the other reading's bytes are refused. A frame with
 * a bad LEN or block command is never taken: it is asked again (NAK), at most `retries` times.
 */
export async function readBlocks(
  line: TransferLine,
  start: number,
  count: number,
  first: number,
  wire: ReadWire,
): Promise<TransferResult> {
  const byte = (what: string) => line.reader.readByte(line.timeoutMs, what);
  const fail = async (reason: string): Promise<never> => {
    await line.send(Uint8Array.of(NUL)).catch(() => undefined); // cancel: the device may wait for us
    throw new ProtocolError(`READ: ${reason}`);
  };
  const blocks: ChduBlock[] = [];
  let retries = 0;
  let next = first;
  for (;;) {
    if (next === EOT) return { blocks, eotOwed: false };
    if (next === NAK) {
      const code = await byte('error byte');
      // EC_BLOCK: the address was never written — the read stops there (port contract).
      if (code === EC.BLOCK) return { blocks, eotOwed: false };
      throw new DeviceError(code, CMD.READ);
    }
    let lead = ACK;
    if (next === ACK || next === BEL) {
      if (wire.shape === 'public-driver' && blocks.length > 0) return fail('a lead byte before a block');
      lead = next;
      next = await byte('READ data frame');
    } else if (wire.shape === 'spec-text') return fail('a block without its lead byte');
    if (next !== STX) return fail(`0x${next.toString(16)} where a data frame starts`);
    const block = await readBlock(line, start + blocks.length, lead === ACK);
    if (!block) {
      if (retries++ >= line.retries) return fail('data frame damaged repeatedly');
      line.reader.discard();
      await line.send(Uint8Array.of(NAK));
      next = await byte('repeated READ block');
      // Spec text: the damaged frame's own EOT may come after the discard.
      if (next === EOT && wire.shape !== 'public-driver') next = await byte('repeated READ block');
      continue;
    }
    retries = 0;
    await line.send(Uint8Array.of(ACK));
    const after = await byte('end of a READ data frame');
    if (after === ACK || after === BEL) {
      if (wire.shape === 'spec-text') return fail('data frame not closed by EOT');
      wire.shape = 'public-driver';
      blocks.push(after === BEL ? { ...block, crcOk: false } : block);
      if (blocks.length === count) return { blocks, eotOwed: false };
      next = await byte('READ data frame');
      continue;
    }
    if (after !== EOT) return fail(`0x${after.toString(16)} after a data frame`);
    blocks.push(block);
    // Spec text: one more EOT closes the transfer; it is not waited for (the next command's
    // first answer may skip it). Public driver: this EOT was the last block's end byte.
    if (blocks.length === count) return { blocks, eotOwed: wire.shape !== 'public-driver' };
    if (wire.shape === 'public-driver') return { blocks, eotOwed: false };
    try {
      next = await byte('READ answer');
    } catch (e) {
      if (!(e instanceof ReadTimeout) || wire.shape === 'spec-text') throw e;
      // Nothing after the EOT while the shape is unknown: a public-driver device that ended the
      // transfer early, or a spec-text one whose next lead is merely late (a slow device, or kasa's
      // own thread stalled past 1 s). Silence proves neither, and taking it for the public reading
      // made every later EOT a "last block" and the late frames the next READ's answer (short
      // READs, blocks under a wrong address). So nothing is learned: a NUL cancels a slow device,
      // and the caller quiets the line and asks again from the next address (`endUncertain`). The
      // shape stays unknown until a device shows it (an end byte ACK/BEL, or a lead after the EOT).
      await line.send(Uint8Array.of(NUL)).catch(() => undefined);
      return { blocks, eotOwed: false, endUncertain: true };
    }
    wire.shape = 'spec-text';
  }
}

/** A block's frame after its STX: LEN and DATA through the codec's parser, within 1 s. */
async function readBlock(
  line: TransferLine,
  address: number,
  crcOk: boolean,
): Promise<ChduBlock | undefined> {
  const parser = new FrameParser({ skipNoise: false, untilPayload: true });
  parser.push(Uint8Array.of(STX));
  const r = await readFrame(line.reader, parser, line.timeoutMs, 'READ data frame');
  return r.kind === 'frame' ? toBlock(address, r.payload, crcOk) : undefined;
}

function toBlock(address: number, payload: Uint8Array, crcOk: boolean): ChduBlock | undefined {
  const d = decodeBlockData(payload);
  if (!d || (d.command !== 0xb2 && d.command !== 0xb3 && d.command !== 0xb4)) return undefined;
  const command = d.command as BlockCommand;
  if (command === 0xb4) {
    if (d.stored.length < 2) return { address, command, data: d.stored, crcOk: false };
    return {
      address,
      command,
      data: d.stored.slice(2),
      crcOk,
      printOffset: d.stored[0]! | (d.stored[1]! << 8),
    };
  }
  return { address, command, data: d.stored.slice(), crcOk };
}
