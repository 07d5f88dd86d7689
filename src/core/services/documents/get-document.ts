import type { ApiDocument } from '../../documents/api-document.js';
import { toApiDocument } from '../../documents/api-document.js';
import { type GetDocumentInput, notFoundSentence, toDocumentQuery } from '../../documents/document-query.js';
import { FiscalError } from '../../fiscal-error.js';
import { type MerchantView, merchantView } from '../../merchant/merchant-record.js';
import type { IndexedDocument } from '../../ports/journal-index.js';
import type { DocumentDeps } from './document-deps.js';
import {
  documentLayout,
  merchantOf,
  printerCodeOf,
  printerError,
  receiptImages,
} from './document-receipt.js';
import { assertLastDocumentPrinted, sfsFailure } from './issue-document.js';
import { findDocumentToHead } from './journal-tail.js';
import { printOptionsOf } from './store-document.js';

/**
 * `POST /api/document/get`: a document by sequenceId+month+year, externalId, OKP, PKP or UUID, or
 * the last fiscal document of any type (ADR 0008 §4). Read-only unless `printer` is given: then the
 * document is also printed as a copy marked KÓPIA, recorded in the CHDÚ, and never counted as the
 * original's print. Not found → 506 (HTTP 200 on this route). A document the SFS did not accept
 * (stuck, or set aside) answers the error a store answered for it (sfsFailure: 501, 502, 601 or
 * 602), never 0 as if valid (ADR 0119).
 */
export class GetDocument {
  constructor(private readonly deps: DocumentDeps) {}

  async execute(
    input: GetDocumentInput & { printer?: unknown },
  ): Promise<{ resultCode: 0; document: ApiDocument<MerchantView> }> {
    const query = toDocumentQuery(input);
    const wantsCopy = input.printer !== undefined && input.printer !== null;
    if (!wantsCopy) return this.#answer(await this.#find(query));
    return this.deps.lock.run('document/get+print', async () => {
      const doc = await this.#find(query);
      // A copy is a CHDÚ write too: while the last original is unprinted, it must be printed first.
      assertLastDocumentPrinted(this.deps);
      const { merchant } = await merchantOf(this.deps, doc);
      if (notValid(doc)) throw notValidLookup(doc, ' No copy of it can be printed.');
      const { images, logo } = receiptImages(this.deps);
      const layout = documentLayout(doc, merchant, this.deps.printer.charsPerLine, { copy: true, logo });
      let printerCode: number | undefined;
      try {
        await this.deps.printer.print(
          { kind: 'copy', layout, reference: doc.document.documentNumber, images },
          printOptionsOf(input.printer),
        );
      } catch (e) {
        printerCode = printerCodeOf(e);
      }
      await this.deps.journal.append({
        type: 'print',
        body: {
          documentNo: doc.document.documentNo,
          copy: true,
          ok: printerCode === undefined,
          ...(printerCode === undefined ? {} : { printerCode }),
        },
      });
      if (printerCode !== undefined) {
        throw printerError(
          printerCode,
          `The copy of document ${doc.document.documentNumber} could not be printed (printer code ${printerCode}).`,
        );
      }
      return this.#answer(doc);
    });
  }

  /** Up to the journal head, also while the index lags behind the CHDÚ (ADR 0116). */
  async #find(query: ReturnType<typeof toDocumentQuery>): Promise<IndexedDocument> {
    const doc = await findDocumentToHead(this.deps, query);
    // ADR 0010: the sentence names what was looked for, so a POS log says which look-up failed.
    if (!doc) throw new FiscalError('NOT_FOUND', notFoundSentence(query));
    return doc;
  }

  async #answer(doc: IndexedDocument): Promise<{ resultCode: 0; document: ApiDocument<MerchantView> }> {
    if (notValid(doc)) throw notValidLookup(doc);
    const { recordNo, merchant } = await merchantOf(this.deps, doc);
    return {
      resultCode: 0,
      document: toApiDocument(doc, merchantView(recordNo, merchant, this.deps.clock.now())),
    };
  }
}

/** Stuck or set aside: the SFS did not accept it; it is not valid and must not be handed over. */
function notValid(doc: IndexedDocument): boolean {
  return doc.sendState === 'stuck' || doc.sendState === 'set-aside';
}

/** The store's error for the document (sfsFailure), with what the lookup adds to it. */
function notValidLookup(doc: IndexedDocument, more = ''): FiscalError {
  const failure = sfsFailure(doc);
  if (more === '') return failure;
  return new FiscalError(failure.resultName, `${failure.message}${more}`, { ...failure.details });
}
