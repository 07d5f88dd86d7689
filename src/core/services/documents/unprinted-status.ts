import { FiscalError } from '../../fiscal-error.js';
import type { DocumentDeps } from './document-deps.js';
import { assertLastDocumentPrinted } from './issue-document.js';

/**
 * The use cases that print a document's original while they hold the write lock (store, cash,
 * `document/print`, a repair of a document stuck when it was created).
 */
const PRINTING_ORIGINAL: ReadonlyMap<string, string> = new Map([
  ['document/store', 'the store request that issues it'],
  ['cash', 'the cash request that issues it'],
  ['document/print', 'POST /api/document/print'],
  ['document/update', 'the repair (POST /api/document/update)'],
]);

/**
 * The unprinted-document cause as `/api/status/get` names it. While the request that issues and
 * prints the document still holds the write lock — one writer at a time (ADR 0003), so any
 * unprinted document then is the one it issues — nothing is wrong with the register: every other
 * writer gets 300 for the moment, so the status says 300 (BUSY) and what that request is doing —
 * waiting for the SFS's answer, or printing (e.g. a paced print in a pause, ADR 0516). Telling the
 * shop to print it with `POST /api/document/print` would only earn a 300, and naming it "not
 * printed" (508) while it waits for the SFS alarmed a POS polling the status. Once the request
 * ends without a print, the usual 508 "print it" sentence (docs/printing.md).
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
    // A store or cash request whose own attempt has no outcome yet (ADR 0005) waits for the SFS.
    // `document/print` never sends (the document it prints may still have no outcome: a crash
    // while a store waited, or an outcome the CHDÚ did not take). A repair sends a document with an
    // earlier outcome again, then prints it: which of the two is not known here.
    const sends = holder === 'document/store' || holder === 'cash';
    const phase: 'sfs' | 'printing' | 'resending' =
      sends && doc.sendState === 'unsent' && doc.lastExchange === undefined
        ? 'sfs'
        : holder === 'document/update' && doc.sendState === 'unsent'
          ? 'resending'
          : 'printing';
    const doing = {
      sfs: "it waits for the SFS's answer",
      resending: 'it is sent to the SFS again, then printed',
      printing: 'it is being printed',
    }[phase];
    return new FiscalError(
      'BUSY',
      `Document ${doc.document.documentNumber} is still with ${by}: ${doing}. Wait for that request's answer; POST /api/document/print is needed only if its print fails.`,
      {
        documentNumber: doc.document.documentNumber,
        internalDocumentId: doc.document.documentNo,
        phase,
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
