import { nodeSha256 } from '../adapters/crypto/node-sha256.js';
import type { ChduTarget } from '../config/targets.js';
import { ChduJournal } from '../core/journal/chdu-journal.js';
import type { Chdu } from '../core/ports/chdu.js';
import { openChdu } from './open-chdu.js';

/** A CHDÚ opened for reading and the journal over it (`kasa chdu info|verify|reindex|export`). */
export interface ReadOnlyJournal {
  chdu: Chdu;
  journal: ChduJournal;
  close(): Promise<void>;
}

/**
 * Opens `target` without writing (an image beside a running `kasa serve` is read, never locked)
 * and reads the journal's head from it. The CHDÚ is closed again when the head cannot be read.
 */
export async function openJournalReadOnly(target: ChduTarget): Promise<ReadOnlyJournal> {
  const chdu = await openChdu(target, { readOnly: true });
  try {
    const journal = await ChduJournal.open(chdu, { sha256: nodeSha256, besideWriter: true });
    return { chdu, journal, close: () => chdu.close() };
  } catch (e) {
    await chdu.close().catch(() => undefined);
    throw e;
  }
}
