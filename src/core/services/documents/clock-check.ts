import { FiscalError } from '../../fiscal-error.js';
import { formatApiDateTime, parseSfsDateTime } from '../../time.js';
import type { DocumentDeps } from './document-deps.js';

/**
 * ADR 0117: a document is never dated before the one issued before it. A clock that went back
 * (a wrong manual setting, a dead RTC battery, NTP stepping) is 502 INCORRECT_TIME ("the
 * register's time is wrong", ADR 0007) with both times; nothing is written. A set-aside document
 * does not count (ADR 0117 amended, ADR 0711): it was never registered and blocks nothing, so one
 * dated by a clock that ran ahead does not hold the register until real time catches up with it.
 */
export function assertClockNotBehind(deps: Pick<DocumentDeps, 'index'>, createDate: Date): void {
  // ADR 1115: the last document's creation instant from its row; the document itself is read only
  // for the refusal (or when that instant cannot be read from the row), where it is checked as before.
  const created = deps.index.lastDocumentCreated();
  if (!created) return;
  if (created.createMs !== null && createDate.getTime() >= created.createMs) return;
  const last = deps.index.findDocument({ by: 'documentNo', documentNo: created.documentNo });
  if (!last) return;
  const lastCreate = parseSfsDateTime(last.document.sfs.CreateDate);
  if (!lastCreate || createDate.getTime() >= lastCreate.getTime()) return;
  throw new FiscalError(
    'INCORRECT_TIME',
    `The register's clock reads ${formatApiDateTime(createDate)}, earlier than the creation time of the last document ${last.document.documentNumber} (${formatApiDateTime(lastCreate)}). A document must not be dated before the one before it: correct the system time. Nothing was stored.`,
    {
      clock: formatApiDateTime(createDate),
      lastDocumentNumber: last.document.documentNumber,
      lastCreateDate: formatApiDateTime(lastCreate),
    },
  );
}
