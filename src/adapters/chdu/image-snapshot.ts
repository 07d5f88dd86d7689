import { closeSync, openSync } from 'node:fs';
import { FiscalError } from '../../core/fiscal-error.js';
import { openImageIo } from './image-io.js';
import { decodeHeader, decodeSlot, HEADER_SIZE, SLOT_SIZE, slotOffset } from './image-layout.js';

const CHUNK_SLOTS = 1024;

/**
 * Copies an image-file CHDÚ that another process may be appending to (ADR 0804): the header and
 * the longest run of completed (sealed) slots present at the moment each chunk is read. Nothing is
 * locked or written in the source: the image is append-only and every slot is sealed whole, so a
 * sealed prefix read now stays exactly what it is, and a slot being written at this moment is not
 * sealed yet and ends the copy. The copy is a valid image of its own (same header, same slots).
 *
 * @returns the number of slots copied
 * @throws FiscalError 200 when the source is missing, 201 when it is not a kasa image
 */
export async function copySealedPrefix(source: string, target: string, upToSlots?: number): Promise<number> {
  const from = await openImageIo(source, false).catch((e: unknown) => {
    throw new FiscalError('CHDU_NOT_CONNECTED', `Cannot open the CHDÚ image ${source}.`, undefined, {
      cause: e,
    });
  });
  try {
    const header = Buffer.alloc(HEADER_SIZE);
    await from.read(header, 0);
    const decoded = decodeHeader(header);
    if (typeof decoded === 'string')
      throw new FiscalError('CHDU_WRITE_ERROR', `CHDÚ image ${source}: ${decoded}.`);
    closeSync(openSync(target, 'wx', 0o600)); // a new file, never one that is there already
    const to = await openImageIo(target, true, false);
    try {
      await to.write(header, 0);
      let slots = 0;
      const limit = Math.min(upToSlots ?? decoded.capacityBlocks + 1, decoded.capacityBlocks + 1);
      for (;;) {
        const want = Math.min(CHUNK_SLOTS, limit - slots);
        if (want <= 0) break;
        const buf = Buffer.alloc(want * SLOT_SIZE);
        const got = Math.floor((await from.read(buf, slotOffset(slots))) / SLOT_SIZE);
        let sealed = 0;
        while (
          sealed < got &&
          decodeSlot(buf.subarray(sealed * SLOT_SIZE, (sealed + 1) * SLOT_SIZE), slots + sealed).sealed
        ) {
          sealed++;
        }
        if (sealed > 0) await to.write(buf.subarray(0, sealed * SLOT_SIZE), slotOffset(slots));
        slots += sealed;
        if (sealed < want) break;
      }
      await to.sync();
      return slots;
    } finally {
      await to.close();
    }
  } finally {
    await from.close();
  }
}

/** Cuts an image copy (not a live image) after `slots` slots. */
export async function truncateImageCopy(path: string, slots: number): Promise<void> {
  const io = await openImageIo(path, true, false);
  try {
    await io.truncate(slotOffset(slots));
    await io.sync();
  } finally {
    await io.close();
  }
}
