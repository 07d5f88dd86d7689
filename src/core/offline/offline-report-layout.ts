import { parseCentsText } from '../documents/decimal.js';
import type { QueueEntry } from '../ports/indexed-records.js';
import { formatCents } from '../receipt/format-cents.js';
import { LineBuilder } from '../receipt/line-builder.js';
import type { ReceiptLayout } from '../receipt/receipt-blocks.js';
import { formatApiDateTime, parseSfsDateTime } from '../time.js';
import { stuckCause } from './last-request.js';

/**
 * The printed offline report ("Neodoslané dátové správy", protocol reference §4.2: a printout of
 * unsent data messages). One job per item, so a print cut short resumes at an exact item
 * (`offset`); the heading and the end are jobs of their own. Slovak wording like the receipts;
 * CP852 characters only.
 */
export const REPORT_WORDING = {
  heading: 'NEODOSLANÉ DÁTOVÉ SPRÁVY',
  created: 'Vytvorené:',
  items: 'Položiek v zostave:',
  from: 'Od položky:',
  document: 'Doklad',
  location: 'Poloha',
  createDate: 'Vytvorený:',
  amount: 'Suma:',
  okp: 'OKP:',
  attempts: 'Pokusov:',
  offline: 'Stav: neodoslaný',
  rejected: 'Stav: ZAMIETNUTÝ SFS',
  setAside: 'Stav: ODLOŽENÝ PRE DAŇOVÝ ÚRAD',
  end: 'KONIEC ZOSTAVY',
  none: 'Všetko je odoslané.',
} as const;

export function reportHeadingLayout(width: number, now: Date, count: number, offset: number): ReceiptLayout {
  const b = new LineBuilder(width).heading(REPORT_WORDING.heading).separator('double');
  b.pair(REPORT_WORDING.created, formatApiDateTime(now));
  b.pair(REPORT_WORDING.items, String(count));
  if (offset > 0) b.pair(REPORT_WORDING.from, String(offset + 1));
  if (count === 0) b.wrapped(REPORT_WORDING.none);
  return b.separator().build();
}

export function reportItemLayout(width: number, entry: QueueEntry, position: number): ReceiptLayout {
  const b = new LineBuilder(width);
  const apiDate = (sfs: string) => {
    const d = parseSfsDateTime(sfs);
    return d ? formatApiDateTime(d) : sfs;
  };
  if (entry.kind === 'document') {
    const d = entry.item.document;
    b.pair(`${position}. ${REPORT_WORDING.document} ${d.documentNumber}`, d.sfs.ReceiptType, { bold: true });
    b.pair(REPORT_WORDING.createDate, apiDate(d.sfs.CreateDate));
    const cents = parseCentsText(d.sfs.Amount) ?? 0;
    b.pair(REPORT_WORDING.amount, `${formatCents(d.sfs.ReceiptType === 'VY' ? -cents : cents)} EUR`);
    b.code(REPORT_WORDING.okp, d.okp);
  } else {
    const l = entry.item.location;
    const kind = l.sfs.location.kind === 'address' ? 'adresa' : l.sfs.location.kind === 'gps' ? 'GPS' : 'iné';
    b.pair(`${position}. ${REPORT_WORDING.location} ${l.locationNo}`, kind, { bold: true });
    b.pair(REPORT_WORDING.createDate, apiDate(l.sfs.CreateDate));
  }
  b.pair(REPORT_WORDING.attempts, String(entry.item.sendingCount));
  if (entry.item.sendState === 'stuck') {
    const { code, text } = stuckCause(entry);
    b.wrapped(`${REPORT_WORDING.rejected} ${code}: ${text}`);
  } else if (entry.item.sendState === 'set-aside') {
    // ADR 0711: rejected by the SFS, never registered; the tax office deals with it.
    const { code, text } = stuckCause(entry);
    b.wrapped(`${REPORT_WORDING.setAside} (${code}: ${text})`);
  } else {
    b.text(REPORT_WORDING.offline);
  }
  return b.separator().build();
}

export function reportEndLayout(width: number): ReceiptLayout {
  return new LineBuilder(width)
    .text(REPORT_WORDING.end, { align: 'center', bold: true })
    .feed(3)
    .cut()
    .build();
}

/**
 * About how many bytes a layout takes at the printer (the text, a line feed per line, a few
 * control bytes per block): what `windowSize` counts when the report pauses between jobs.
 */
export function estimatedBytes(layout: ReceiptLayout): number {
  const utf8 = new TextEncoder();
  let bytes = 0;
  for (const block of layout.blocks) {
    bytes +=
      block.kind === 'text'
        ? utf8.encode(block.text).length + 4
        : block.kind === 'separator'
          ? layout.width + 1
          : 4;
  }
  return bytes;
}
