import type { ApiDocument } from '../../documents/api-document.js';
import { toApiDocument } from '../../documents/api-document.js';
import { isAbsent } from '../../documents/field-rules.js';
import { paragonKey } from '../../documents/paragon-key.js';
import { FiscalError, invalidInput } from '../../fiscal-error.js';
import type { MerchantView } from '../../merchant/merchant-record.js';
import {
  applyDocumentFix,
  changingMembers,
  type FixDocumentInput,
  handedOver,
  type PreviousDocument,
} from '../../offline/fix-document.js';
import { nextSendingCount } from '../../offline/sending-count.js';
import type { IndexedDocument } from '../../ports/indexed-records.js';
import { readStoredSetting } from '../../settings/stored-settings.js';
import type { SfsReceiptData } from '../../sfs/message.js';
import { okpFromPkp } from '../../sfs/okp.js';
import { computePkp } from '../../sfs/pkp.js';
import { parseSfsDateTime } from '../../time.js';
import { merchantOf, type PrintFailure, printerError, printOriginal } from '../documents/document-receipt.js';
import { assertLastDocumentPrinted, sfsFailure } from '../documents/issue-document.js';
import { unprintedOnReplay } from '../documents/replay-answer.js';
import { recordStartIn, sendDocumentAttempt } from '../documents/send-attempt.js';
import { merchantViewOf, type OfflineDeps } from './offline-deps.js';
import { repairTarget } from './repair-target.js';

/**
 * `POST /api/document/update {fixDocument, internalDocumentId?}` (API text; capability 10):
 * repairs the oldest stuck document — the one `internalDocumentId` names, which must be it (ADR
 * 0715; `repairTarget` answers a document already repaired, set aside or never rejected) — with
 * only the data sent, as a new `repair` record (the original stays in the CHDÚ), re-signs its PKP
 * when a signed field or the key changed (SFS spec §2.1), sends it at once (SendingCount + 1) and
 * prints the original if it was never printed whole (a document printed in part, which may be in
 * the customer's hands, takes only `{}` and is printed whole then; ADR 0712).
 *
 * Nothing stuck → 500 NO_FIX_NEEDED; an invalid fix or target → 701 naming the field; rejected
 * again → the document stays stuck and the answer is 501 with the new SFS code (502 when the SFS
 * refused it for a reason of time, ADR 0714; 601/602 by cause).
 */
export class RepairDocument {
  constructor(private readonly deps: OfflineDeps) {}

  async execute(
    fix: FixDocumentInput,
    internalDocumentId?: number,
  ): Promise<{ resultCode: 0; document: ApiDocument<MerchantView> }> {
    return this.deps.lock.run('document/update', async () => {
      const current = this.deps.merchant.currentSigner();
      const target = repairTarget(this.deps.index, internalDocumentId);
      // ADR 0715: a retry whose first answer was lost writes, sends and prints nothing.
      if (target.kind === 'repaired') return this.#asItStands(target.doc);
      const stuck = target.stuck;
      assertLastDocumentPrinted(this.deps);
      const doc = stuck.document;
      // ADR 0712: the customer holds it as it was signed; the SFS must get exactly that.
      const changing = handedOver(stuck) ? changingMembers(fix) : [];
      if (changing.length > 0) {
        throw invalidInput(
          changing[0]!,
          `document ${doc.documentNumber} (OKP ${doc.okp}) was already handed over to the customer (printed, or printed in part), so a fix must not change it: the SFS would register other data than the customer's receipt shows. Send it again as it is with {"internalDocumentId": ${doc.documentNo}, "fixDocument": {}} once the cause of the rejection has passed, or set it aside for the tax office with POST /api/offline/set-aside {"internalDocumentId": ${doc.documentNo}, "reason": "…"}`,
        );
      }
      const m = current.merchant;
      const fixed = applyDocumentFix(doc, fix, {
        now: this.deps.clock.now(),
        cashPaymentNames: readStoredSetting(this.deps.index.settings(), 'cashPaymentNames'),
        previous: isAbsent(fix.createDate) ? undefined : previousIssued(this.deps, doc.documentNo),
        lastMerchant: {
          recordNo: current.recordNo,
          dic: m.dic,
          icDph: m.icDph,
          ico: m.ico,
          cashRegisterCode: m.organizationUnit.cashRegisterCode,
        },
      });
      assertParagonKeyFree(this.deps, doc.documentNo, fixed.sfs);
      const merchantRecordNo = fixed.merchantRecordNo ?? doc.merchantRecordNo;
      // SFS spec §2.1/§2.4: the PKP and the message signature use the same key (ADR 0703).
      const signer =
        fixed.merchantRecordNo === undefined
          ? await this.deps.signers.forMerchantRecord(doc.merchantRecordNo)
          : current.signer;
      const pkp = fixed.resign ? computePkp(fixed.sfs, signer) : doc.pkp;
      const okp = fixed.resign ? okpFromPkp(pkp) : doc.okp;

      const release = this.deps.claims.claim({ kind: 'document', documentNo: doc.documentNo });
      try {
        await this.deps.journal.append({
          type: 'repair',
          body: {
            subject: { kind: 'document', documentNo: doc.documentNo },
            reason: `fixDocument after SFS ${stuck.lastExchange?.errorCode ?? stuck.lastExchange?.outcome ?? 'rejection'}`,
            sfs: fixed.sfs,
            pkp,
            okp,
            roundingCents: fixed.roundingCents,
            ...(fixed.merchantRecordNo === undefined ? {} : { merchantRecordNo: fixed.merchantRecordNo }),
            fix: fixed.changes,
          },
        });
        const repaired = this.#reload(doc.documentNo);
        await sendDocumentAttempt(
          this.deps,
          repaired.document,
          signer,
          nextSendingCount(stuck.sendingCount),
          { onStart: recordStartIn(this.deps.journal) },
        );
      } finally {
        release?.();
      }
      const after = this.#reload(doc.documentNo);
      if (after.sendState === 'stuck') throw sfsFailure(after);

      // A document stuck at creation was never handed over: its original is printed now.
      let failure: PrintFailure | undefined;
      if (after.printState === 'pending' || after.printState === 'failed') {
        const { merchant } = await merchantOf(this.deps, after);
        failure = await printOriginal(this.deps, after, merchant, false);
      }
      const final = this.#reload(doc.documentNo);
      const document = toApiDocument(final, merchantViewOf(this.deps, merchantRecordNo));
      if (failure !== undefined) {
        throw printerError(
          failure.printerCode,
          `Document ${doc.documentNumber} is repaired and ${final.sendState === 'unsent' ? 'queued for the SFS' : 'registered'}, but printing failed (printer code ${failure.printerCode}); print it with POST /api/document/print.`,
          { document, ...(failure.partialPrint === undefined ? {} : { partialPrint: failure.partialPrint }) },
        );
      }
      return { resultCode: 0 as const, document };
    });
  }

  /** A repair's answer for the document as it stands now: 0, or 507 while unprinted (ADR 0119). */
  #asItStands(doc: IndexedDocument): { resultCode: 0; document: ApiDocument<MerchantView> } {
    const document = toApiDocument(doc, merchantViewOf(this.deps, doc.document.merchantRecordNo));
    const unprinted = unprintedOnReplay(doc, { document });
    if (unprinted) throw unprinted;
    return { resultCode: 0, document };
  }

  #reload(documentNo: number): IndexedDocument {
    const doc = this.deps.index.findDocument({ by: 'documentNo', documentNo });
    if (!doc) throw new FiscalError('UNKNOWN', `document ${documentNo} is not in the index`);
    return doc;
  }
}

/**
 * The document issued before `documentNo`: the previous by number that is not set aside (a
 * set-aside document blocks nothing, ADR 0711) — what a new CreateDate must not lie before (ADR
 * 0117). Undefined for the first document.
 */
function previousIssued(deps: Pick<OfflineDeps, 'index'>, documentNo: number): PreviousDocument | undefined {
  for (let n = documentNo - 1; n >= 1; n--) {
    const before = deps.index.findDocument({ by: 'documentNo', documentNo: n });
    if (before === undefined || before.sendState === 'set-aside') continue;
    const createDate = parseSfsDateTime(before.document.sfs.CreateDate);
    if (createDate !== undefined) return { documentNumber: before.document.documentNumber, createDate };
  }
  return undefined;
}

/**
 * ADR 0431: a repair that moves a paragón's issueDate onto a day where the same paragón number is
 * already another document would make one paper two documents: 701 naming the member.
 */
function assertParagonKeyFree(
  deps: Pick<OfflineDeps, 'index'>,
  documentNo: number,
  sfs: SfsReceiptData,
): void {
  if (sfs.Paragon !== 'true' || sfs.ParagonNumber === undefined || sfs.IssueDate === undefined) return;
  const other = deps.index.findDocument({ by: 'paragon', key: paragonKey(sfs.ParagonNumber, sfs.IssueDate) });
  if (other === undefined || other.document.documentNo === documentNo) return;
  throw invalidInput(
    'fixDocument.issueDate',
    `paragón ${sfs.ParagonNumber} of that day is already document ${other.document.documentNumber} (internalDocumentId ${other.document.documentNo}); one paper is entered once`,
  );
}
