import { apiAmount } from '../../src/core/documents/api-document.js';
import type { Journal } from '../../src/core/ports/journal.js';

/** A document as the CHDÚ holds it, in the terms the POS was answered in. */
export interface JournalDocument {
  documentNo: number;
  documentNumber: string;
  /** `yyyyMM` */
  month: string;
  sequenceId: number;
  okp: string;
  pkp: string;
  amount: number;
  key?: string;
}

/** Every document record of the journal, in order (read from the CHDÚ, not from the index). */
export async function journalDocuments(journal: Journal): Promise<JournalDocument[]> {
  const out: JournalDocument[] = [];
  for await (const r of journal.records(1)) {
    if (r.type !== 'document') continue;
    const d = r.body;
    const [month = '', seq = ''] = d.documentNumber.split('/');
    out.push({
      documentNo: d.documentNo,
      documentNumber: d.documentNumber,
      month,
      sequenceId: Number(seq),
      okp: d.okp,
      pkp: d.pkp,
      amount: apiAmount(d),
      ...(d.idempotency ? { key: d.idempotency.key } : {}),
    });
  }
  return out;
}
