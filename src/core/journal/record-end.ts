import type { Chdu } from '../ports/chdu.js';
import type { JournalHead } from '../ports/journal.js';
import { BlockCursor, readItems } from './journal-reader.js';

/**
 * The first address after the head record and the print blocks that belong to it (ADR 0100:
 * print blocks follow their record). Whatever lies beyond — the start of a record still being
 * written when a copy was taken — is not part of the journal up to `head`. `used` bounds the read.
 */
export async function endOfHeadRecord(chdu: Chdu, head: JournalHead, used: number): Promise<number> {
  let end = head.address;
  for await (const item of readItems(new BlockCursor(chdu, head.address, 64, used))) {
    if (item.kind === 'record' && item.header.recordNo === head.recordNo && item.address === head.address) {
      end = item.address + item.blocks;
      continue;
    }
    if (item.kind === 'print' && item.recordNo === head.recordNo && item.address === end) {
      end = item.address + 1;
      continue;
    }
    break;
  }
  return end;
}
