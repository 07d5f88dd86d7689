import { formatEur } from './format-cents.js';
import { LineBuilder, wrapText } from './line-builder.js';
import type { ReceiptLayout } from './receipt-blocks.js';

/** What a QR payment slip shows (ADR 0909). */
export interface QrSlipView {
  creditorName: string;
  amountCents: number;
  paymeLink: string;
  qrPaymentId: string;
  /** `HH:mm` Bratislava time the QR stops being waited for. */
  validUntil: string;
  demo: boolean;
}

/** §5(3)(t) of Act 289/2008 as amended: a non-fiscal print showing a price says so every third line. */
export const NOT_A_RECEIPT = 'NEPLATNÝ DOKLAD';

/**
 * The non-fiscal slip a customer scans (`POST /api/qrpayment/<id>/print`): amount, creditor, the
 * Payme QR (level M, research §4) and the id. It shows a price, so "NEPLATNÝ DOKLAD" stands on
 * every third line: a mark, two lines, a mark, … and around the QR.
 */
export function layoutQrSlip(view: QrSlipView, width: number): ReceiptLayout {
  const b = new LineBuilder(width);
  const lines = [
    ...(view.demo ? ['*** DEMO ***'] : []),
    'QR PLATBA',
    ...wrapText(view.creditorName, width),
    `Suma: ${formatEur(view.amountCents)}`,
  ];
  const after = [
    ...wrapText('Naskenujte v bankovej aplikácii a zaplaťte okamžitou platbou.', width),
    ...wrapText(`Platí do ${view.validUntil}`, width),
    'ID platby:',
    ...codeLines(view.qrPaymentId, width),
  ];
  marked(b, lines);
  b.text(NOT_A_RECEIPT, { align: 'center', bold: true });
  b.qr(view.paymeLink, 'M', 1, 30);
  marked(b, after);
  b.text(NOT_A_RECEIPT, { align: 'center', bold: true });
  return b.feed().cut().build();
}

/** A mark, then at most two lines, then a mark again, … */
function marked(b: LineBuilder, lines: readonly string[]): void {
  lines.forEach((line, i) => {
    if (i % 2 === 0) b.text(NOT_A_RECEIPT, { align: 'center', bold: true });
    b.text(line, { align: 'center' });
  });
}

function codeLines(code: string, width: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < code.length; i += width) out.push(code.slice(i, i + width));
  return out;
}
