import { FiscalError } from '../../fiscal-error.js';
import type { DocumentDeps } from './document-deps.js';
import { assertLastDocumentPrinted } from './issue-document.js';

/**
 * The use cases that print a document's original while they hold the write lock (store, cash,
 * `document/print`, a repair of a document stuck when it was created).
 */
const PRINTING_ORIGINAL: ReadonlyMap<string, string> = new Map([
  ['document/store', 'the store request that issued it'],
  ['cash', 'the cash request that issued it'],
  ['document/print', 'POST /api/document/print'],
  ['document/update', 'the repair that sent it'],
]);

/**
 * The unprinted-document cause (508) as `/api/status/get` names it. While the request that prints
 * the original still holds the write lock — one writer at a time (ADR 0003), so any unprinted
 * document then is the one it prints — the document is being issued and printed (e.g. a paced
 * print in a pause, ADR 0516): telling the shop to print it with `POST /api/document/print`
 * would only earn a 300. Same code, a true sentence; once the request ends without a print, the
 * usual "print it" sentence (docs/printing.md).
 */
export function unprintedStatusRefusal(deps: {
  index: DocumentDeps['index'];
  lock: { readonly holder: string | undefined };
}): FiscalError | undefined {
  const holder = deps.lock.holder;
  const by = holder === undefined ? undefined : PRINTING_ORIGINAL.get(holder);
  if (by !== undefined) {
    const doc = deps.index.unprintedDocument();
    if (!doc) return undefined;
    return new FiscalError(
      'LAST_DOCUMENT_NOT_PRINTED',
      `Document ${doc.document.documentNumber} is being printed by ${by}, still under way: wait for its answer; POST /api/document/print is needed only if that print fails.`,
      {
        documentNumber: doc.document.documentNumber,
        internalDocumentId: doc.document.documentNo,
        printing: true,
      },
    );
  }
  try {
    assertLastDocumentPrinted(deps);
    return undefined;
  } catch (e) {
    return FiscalError.is(e) ? e : undefined;
  }
}
