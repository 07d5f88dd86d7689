import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { FiscalError, invalidInput } from '../../core/fiscal-error.js';
import { describeHolder, FileLock, FileLockedError } from '../file-lock.js';
import { createFileExclusively, type ImageIo } from './image-io.js';
import {
  DEFAULT_CAPACITY_BLOCKS,
  decodeSlot,
  encodeHeader,
  HEADER_SIZE,
  LOCK_SLOT_COMMAND,
  SLOT_SIZE,
  type SlotRun,
  slotOffset,
} from './image-layout.js';

/** What opening an image involves besides reading it: its lock, its creation, finding its end. */

const FIRMWARE = 'kasa-image 1.0';
const PROTOCOL_VERSION = 0x0103;

/** Takes `<image>.lock` (ADR 0106); a held lock is 200, naming who holds it. */
export async function lockImage(path: string, holder: string): Promise<FileLock> {
  await mkdir(dirname(path), { recursive: true });
  try {
    return FileLock.acquire(`${path}.lock`, holder);
  } catch (e) {
    if (!(e instanceof FileLockedError)) {
      throw new FiscalError(
        'CHDU_NOT_CONNECTED',
        `Cannot lock the CHDÚ image ${path} (${path}.lock).`,
        {
          target: `image:${path}`,
        },
        { cause: e },
      );
    }
    throw new FiscalError(
      'CHDU_NOT_CONNECTED',
      `The CHDÚ image ${path} is in use by ${describeHolder(e.holder)}: an image has one writer. Stop it, or use another image.`,
      { target: `image:${path}`, inUseBy: e.holder },
    );
  }
}

/** Creates the image (ADR 0107); false when it appeared meanwhile (it is then opened as it is). */
export async function createImage(
  path: string,
  options: { capacityBlocks?: number; serial?: number; volumeSerial?: number },
  nowMs: number,
): Promise<boolean> {
  const capacity = options.capacityBlocks ?? DEFAULT_CAPACITY_BLOCKS;
  if (!Number.isInteger(capacity) || capacity < 1 || capacity > 0xffffffff) {
    throw invalidInput('capacityBlocks', 'must be an integer from 1 to 4294967295');
  }
  await mkdir(dirname(path), { recursive: true });
  return createFileExclusively(
    path,
    encodeHeader({
      capacityBlocks: capacity,
      serial: options.serial ?? randomBytes(4).readUInt32LE(0),
      volumeSerial: options.volumeSerial ?? Math.floor(nowMs / 1000),
      protocolVersion: PROTOCOL_VERSION,
      firmware: FIRMWARE,
      createdAtMs: nowMs,
    }),
  );
}

/**
 * Finds the end of the written area: the last sealed slot, scanning back from the end of the file
 * (ADR 0103: only the write in flight at a crash can be torn, so garbage sits at the tail), and
 * then the write that slot belongs to (ADR 1101): a record's slots go down in one write, which a
 * crash may leave with any of them missing. The write ends at the last sealed slot only when that
 * slot is its last one and every slot before it in the same write is sealed and in its place;
 * otherwise the whole write is torn and the end is where it began.
 */
export async function findTail(io: ImageIo, size: number): Promise<{ slots: number; locked: boolean }> {
  const fullSlots = Math.max(0, Math.floor((size - HEADER_SIZE) / SLOT_SIZE));
  const chunk = 64;
  for (let hi = fullSlots; hi > 0; hi -= chunk) {
    const lo = Math.max(0, hi - chunk);
    const buf = Buffer.alloc((hi - lo) * SLOT_SIZE);
    await io.read(buf, slotOffset(lo));
    for (let i = hi - 1; i >= lo; i--) {
      const s = decodeSlot(buf.subarray((i - lo) * SLOT_SIZE, (i - lo + 1) * SLOT_SIZE), i);
      if (!s.sealed) continue;
      const start = await completeWriteStart(io, i, s.run);
      if (start !== undefined) return { slots: start, locked: false };
      return { slots: i + 1, locked: s.command === LOCK_SLOT_COMMAND };
    }
  }
  return { slots: 0, locked: false };
}

/**
 * undefined when the write that ended with the sealed slot `last` is complete; else the address
 * it began at (everything from there on is torn).
 */
async function completeWriteStart(io: ImageIo, last: number, run: SlotRun): Promise<number | undefined> {
  const start = Math.max(0, last - run.preceding);
  if (run.following === 0 && run.preceding === 0) return undefined;
  if (run.following > 0 || run.preceding > last) return start;
  const buf = Buffer.alloc((last - start) * SLOT_SIZE);
  await io.read(buf, slotOffset(start));
  for (let a = start; a < last; a++) {
    const s = decodeSlot(buf.subarray((a - start) * SLOT_SIZE, (a - start + 1) * SLOT_SIZE), a);
    if (!s.sealed || s.run.preceding !== a - start || s.run.following !== last - a) return start;
  }
  return undefined;
}
