import { buildDocumentRecord } from '../../documents/document-record.js';
import { fiscalInstant, numberDocument } from '../../documents/numbering.js';
import { paragonKey } from '../../documents/paragon-key.js';
import { receiptFormOf } from '../../documents/receipt-form.js';
import { buildSfsReceiptData, isVatPayer } from '../../documents/sfs-receipt-data.js';
import type { ValidatedCashRequest, ValidatedStoreRequest } from '../../documents/store-request.js';
import { FiscalError, invalidInput } from '../../fiscal-error.js';
import { lastRequestRefusal } from '../../offline/last-request.js';
import type { IndexedDocument } from '../../ports/journal-index.js';
import type { PartialPrintInfo, PrintOptions } from '../../ports/receipt-printer.js';
import { RESULT_CODES } from '../../result-codes.js';
import { isTimeRefusal } from '../../sfs/ekasa-errors.js';
import { sfsTextInSentence } from '../../sfs/error-text.js';
import { okpFromPkp } from '../../sfs/okp.js';
import { computePkp } from '../../sfs/pkp.js';
import { formatSfsDateTime } from '../../time.js';
import type { UsableMerchant } from '../merchant-session.js';
import { assertClockNotBehind } from './clock-check.js';
import type { DocumentDeps } from './document-deps.js';
import {
  electronicReceipt,
  originalPrintRecord,
  type PreparedReceipt,
  prepareReceipt,
  printOriginal,
} from './document-receipt.js';
import { type Attempt, attemptDocument } from './send-attempt.js';
import { landedAnyway, storedButIncomplete, WrittenDocument } from './written-document.js';

export interface IssueOptions {
  idempotency?: { key: string; requestSha256: string } | undefined;
  /** Whether the document, created at `createDate`, must not be sent (VK/VY, Act 384/2025: ADR 0704). */
  notSent?: ((createDate: Date) => { reason: string } | undefined) | undefined;
  /** The request's Printer object: pacing of the print (windowSize, printDelay). */
  printOptions?: PrintOptions | undefined;
}

export interface IssuedDocument {
  doc: IndexedDocument;
  merchant: UsableMerchant;
  /** Printer code 100–106 when the original could not be printed (answer 507). */
  printerCode?: number;
  /** When the failed print left part of the receipt on paper: where a resumed print starts. */
  partialPrint?: PartialPrintInfo;
  /** Base64 PNG when delivered as an electronic receipt. */
  electronicReceipt?: string;
}

/**
 * Refuses a new fiscal write while the last stored request blocks it: the SFS rejected it (501
 * naming it, until repaired — an older document rejected during a resend does not block, ADR
 * 0701) or the last document is not printed (508, until POST /api/document/print succeeds).
 */
export function assertNothingBlocks(deps: Pick<DocumentDeps, 'index'>): void {
  const refusal = lastRequestRefusal(deps.index);
  if (refusal) throw refusal;
  assertLastDocumentPrinted(deps);
}

/** 508 while the last document's original is neither printed nor delivered electronically. */
export function assertLastDocumentPrinted(deps: Pick<DocumentDeps, 'index'>): void {
  const unprinted = deps.index.unprintedDocument();
  if (unprinted) {
    throw new FiscalError(
      'LAST_DOCUMENT_NOT_PRINTED',
      `Document ${unprinted.document.documentNumber} is not printed yet: print it with POST /api/document/print first.`,
      {
        documentNumber: unprinted.document.documentNumber,
        internalDocumentId: unprinted.document.documentNo,
      },
    );
  }
}

/** The CHDÚ is the truth; numbering from an index that lags behind it would repeat numbers. */
export function assertIndexCurrent(deps: Pick<DocumentDeps, 'index' | 'journal'>): void {
  const head = deps.journal.head()?.recordNo ?? 0;
  if (deps.index.highWaterMark() !== head) {
    throw new FiscalError(
      'CHDU_WRITE_ERROR',
      'The index is behind the CHDÚ and is being rebuilt; try again in a moment.',
    );
  }
}

/**
 * The error of a document the SFS did not accept (stuck, or set aside for the tax office): 501 for
 * a rejection, 502 for a rejection for a reason of time (ADR 0008 §17, ADR 0714: the request's own
 * date was refused), 601 for a duplicate, 602 for an answer whose signature cannot be trusted —
 * with the SFS code and text. The requests after it answer 501 while it stays the last request
 * (lastRequestRefusal). A set-aside document says so instead of "waits for repair" (ADR 0119:
 * answered so on a replay and a lookup too).
 */
export function sfsFailure(doc: IndexedDocument): FiscalError {
  const x = doc.lastExchange;
  const time = x?.outcome === 'rejected' && isTimeRefusal(x.errorCode);
  const name =
    x?.outcome === 'duplicate'
      ? 'SFS_DUPLICATE'
      : x?.outcome === 'unverified'
        ? 'SFS_RESPONSE_NOT_VERIFIED'
        : time
          ? 'INCORRECT_TIME'
          : 'LAST_REQUEST_INVALID';
  const text = x?.errorText ?? 'no answer recorded';
  const { documentNumber, documentNo } = doc.document;
  const clock = time ? ` The SFS refused its date: check the register's clock.` : '';
  const state =
    doc.sendState === 'set-aside'
      ? `It was set aside for the tax office (POST /api/offline/set-aside): it was never registered, is not valid and is never printed${doc.printState === 'printed' || doc.printState === 'electronic' || doc.printStarted === true ? ' (the receipt handed over before the rejection is not valid either)' : ''}; it must not be handed over.`
      : 'It is stored but not valid, must not be handed over, and waits for repair.';
  return new FiscalError(
    name,
    `The SFS did not accept document ${documentNumber}${x?.errorCode === undefined ? '' : ` (${x.errorCode})`}: ${sfsTextInSentence(text)}. ${state}${clock}`,
    {
      ekasaError: {
        errorType: 'EKASA',
        errorCode: x?.errorCode ?? RESULT_CODES[name].code,
        message: text,
        detail: '',
      },
      documentNumber,
      internalDocumentId: documentNo,
    },
  );
}

/**
 * ADR 0431: a paragón (a paper receipt written while the register could not issue) is entered once.
 * The same number on the same day is the same paper: entered again — a POS retry without an
 * Idempotency-Key, a double click — it would be registered and counted in the revenue twice.
 */
function assertParagonNotEntered(deps: DocumentDeps, paragon: { number: number; issueDate: Date }): void {
  const issued = formatSfsDateTime(paragon.issueDate);
  const earlier = deps.index.findDocument({ by: 'paragon', key: paragonKey(paragon.number, issued) });
  if (!earlier) return;
  const what =
    earlier.sendState === 'stuck'
      ? 'the SFS rejected it: repair it with POST /api/document/update, or set it aside (POST /api/offline/set-aside) and enter the paper again'
      : earlier.sendState === 'unsent'
        ? 'it is stored and waits to be sent to the SFS; nothing more is needed'
        : 'look it up with POST /api/document/get; a mistake in it is corrected with a REFUND or UPDATE document referring to it';
  throw invalidInput(
    'paragonNumber',
    `paragón ${paragon.number} of ${issued.slice(8, 10)}.${issued.slice(5, 7)}.${issued.slice(0, 4)} is already entered as document ${earlier.document.documentNumber} (internalDocumentId ${earlier.document.documentNo}): ${what}`,
  );
}

/**
 * Issues one fiscal document (capability 6 flow), inside the write lock held by the caller:
 * validate (done by the caller) → number → build the record with PKP/OKP → write it to the CHDÚ →
 * register online within the limit → record the outcome in the CHDÚ → print or render → answer.
 *
 * `validate` runs once the merchant and the create instant are known (VAT payer rules and the
 * paragón date depend on them); whatever it throws leaves nothing written.
 */
export async function issueDocument(
  deps: DocumentDeps,
  validate: (ctx: { createDate: Date; vatPayer: boolean }) => ValidatedStoreRequest | ValidatedCashRequest,
  options: IssueOptions = {},
): Promise<IssuedDocument> {
  const merchant = deps.merchant.currentSigner();
  // The index first: what blocks (501, 508) is read from it, so it must be at the CHDÚ's head.
  assertIndexCurrent(deps);
  assertNothingBlocks(deps);

  const createDate = fiscalInstant(deps.clock.now());
  assertClockNotBehind(deps, createDate);
  const m = merchant.merchant;
  const identity = {
    dic: m.dic,
    cashRegisterCode: m.organizationUnit.cashRegisterCode,
    ...(m.ico === undefined ? {} : { ico: m.ico }),
    ...(m.icDph === undefined ? {} : { icDph: m.icDph }),
  };
  const request = validate({ createDate, vatPayer: isVatPayer(identity) });
  if ('paragon' in request && request.paragon) assertParagonNotEntered(deps, request.paragon);
  const numbering = numberDocument(createDate, (y, mo) => deps.index.lastSequenceId(y, mo));
  const sfs = buildSfsReceiptData(request, identity, numbering, createDate);
  // SFS spec §2.1: the PKP is signed once, at creation, over the strings of the message.
  const pkp = computePkp(sfs, merchant.signer);
  const record = buildDocumentRecord({
    request,
    sfs,
    pkp,
    okp: okpFromPkp(pkp),
    documentNo: deps.index.lastDocumentNo() + 1,
    merchantRecordNo: merchant.recordNo,
    numbering,
    idempotency: options.idempotency,
    demo: m.demo,
  });
  const notSent = options.notSent?.(createDate);
  if (notSent) record.notSent = notSent;

  // Claimed before it is written: the background sender must not pick up a document whose first
  // attempt this request is about to make (capability 10: never sent twice at once).
  const release = deps.claims?.claim({ kind: 'document', documentNo: record.documentNo });
  try {
    const expectedRecordNo = (deps.journal.head()?.recordNo ?? 0) + 1;
    const stored = deps.journal.append({ type: 'document', body: record }).then(
      (r) => r.recordNo,
      (e: unknown) => landedAnyway(deps, e, expectedRecordNo, record),
    );
    // ADR 1109: the first attempt's request is built and signed while the document is flushed;
    // it leaves only once the document is durable (ADR 0705), and not at all if it is not.
    let first: Promise<Attempt> | undefined;
    if (!record.notSent) {
      stored.catch(() => undefined); // awaited just below
      await nextTurn(); // the document's write is with the device before the signing starts
      first = attemptDocument(deps, record, merchant.signer, 1, { notBefore: stored });
      first.catch(() => undefined); // awaited in completeDocument, after the document is stored
    }
    const recordNo = await stored;
    // From here on the document exists in the CHDÚ: whatever fails later, the answer names it.
    const doc = new WrittenDocument(deps, record, recordNo);
    try {
      return await completeDocument(deps, doc, merchant, options, first);
    } catch (e) {
      throw storedButIncomplete(e, record);
    }
  } finally {
    release?.();
  }
}

/** Send, then print or render: the steps after the document record is in the CHDÚ. */
async function completeDocument(
  deps: DocumentDeps,
  written: WrittenDocument,
  merchant: UsableMerchant,
  options: IssueOptions,
  first: Promise<Attempt> | undefined,
): Promise<IssuedDocument> {
  const record = written.record;
  const m = merchant.merchant;
  let outcomeWritten: Promise<unknown> = Promise.resolve();
  if (first !== undefined) {
    // ADR 1107: while this request waits for the SFS, the sender may start a resend or two.
    const { exchange } = await deps.lock.whileAwaitingNetwork(() => first);
    // ADR 1109: the outcome goes to the CHDÚ, and while it is being flushed the receipt is laid
    // out (or drawn, for an electronic receipt) from what this request wrote. Nothing is printed
    // and nothing answered before the outcome is durable (awaited below).
    outcomeWritten = deps.journal.append({ type: 'sfs-exchange', body: exchange });
    // Its failure is thrown where it is awaited below; meanwhile it is not an unhandled rejection.
    outcomeWritten.catch(() => undefined);
    written.exchanged(exchange);
    await nextTurn(); // the outcome's write is with the device before the layout starts
  }
  // Capability 6: electronic only when registered online; offline documents are always printed. A
  // receipt that cannot be rendered is printed instead: the document is valid and must be handed
  // over one way or the other.
  let png: string | undefined;
  let prepared: PreparedReceipt | undefined;
  try {
    const derived = written.derived();
    const electronic = record.electronicRequested && derived.sendState === 'online';
    png = electronic ? tryRender(deps, derived, m) : undefined;
    if (png === undefined && derived.sendState !== 'stuck') prepared = prepareReceipt(deps, derived, m);
  } catch {
    // Laid out again after the write, where its error is handled as it always was: nothing
    // leaves this function while the outcome's write is still under way.
  }
  await outcomeWritten;
  // ADR 1113: what blocks the answer (stuck?) and what is printed come from the records this
  // request wrote, folded by the rules the index applies: the index row is that same fold, since
  // no other writer touches a claimed document while this request holds the lock. The answer is
  // still read from the index below, once (ADR 0116).
  const doc = written.derived();

  if (doc.sendState === 'stuck') throw sfsFailure(doc);

  const issued: IssuedDocument = { doc, merchant };
  if (png !== undefined) {
    issued.electronicReceipt = png;
    // Rendered from the same state (registered online): its form is what the customer got (ADR 0713).
    const print = {
      documentNo: record.documentNo,
      copy: false,
      ok: true,
      electronic: true,
      form: receiptFormOf(doc).form,
    };
    await deps.journal.append({ type: 'print', body: print });
    written.printed(print);
    // The drawer is a convenience: a failing kick must not turn a registered sale into an error.
    if (record.openDrawer) await deps.printer.openDrawer().catch(() => undefined);
  } else {
    const receipt = prepared ?? prepareReceipt(deps, doc, m);
    const failure = await printOriginal(
      deps,
      doc,
      m,
      record.openDrawer,
      options.printOptions,
      false,
      receipt,
    );
    // The same body printOriginal wrote (partialPrint sets printStarted, ADR 0507; drawerOpened
    // keeps a reprint from kicking, ADR 0517; the form fixes the copies', ADR 0713).
    written.printed(originalPrintRecord(record.documentNo, failure, receipt.form));
    if (failure !== undefined) {
      issued.printerCode = failure.printerCode;
      if (failure.partialPrint !== undefined) issued.partialPrint = failure.partialPrint;
    }
  }
  issued.doc = written.current();
  return issued;
}

/**
 * One turn of the event loop: an append started just before has reached the device (its write is
 * with the thread pool) when the work meant to overlap it starts (ADR 1109).
 */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function tryRender(
  deps: DocumentDeps,
  doc: IndexedDocument,
  merchant: UsableMerchant['merchant'],
): string | undefined {
  try {
    return electronicReceipt(deps, doc, merchant);
  } catch {
    return undefined;
  }
}
