import { ChduJournal } from '../../core/journal/chdu-journal.js';
import { ImageFileChdu } from '../chdu/image-file-chdu.js';
import { nodeSha256 } from '../crypto/node-sha256.js';

/** An image file opened read-only and the journal over it: how backup and restore look at copies. */
export async function openImageJournal(path: string): Promise<{
  chdu: ImageFileChdu;
  journal: ChduJournal;
  close(): Promise<void>;
}> {
  const chdu = await ImageFileChdu.open(path, { readOnly: true });
  try {
    const journal = await ChduJournal.open(chdu, { sha256: nodeSha256 });
    return { chdu, journal, close: () => chdu.close() };
  } catch (e) {
    await chdu.close().catch(() => undefined);
    throw e;
  }
}
