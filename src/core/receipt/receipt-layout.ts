import { formatCents, formatEur } from './format-cents.js';
import { LineBuilder, type TableRow, wrapText } from './line-builder.js';
import { printedLength, type ReceiptBlock, type ReceiptLayout } from './receipt-blocks.js';
import type { ReceiptItemView, ReceiptView } from './receipt-model.js';
import { RECEIPT_WORDING as W } from './receipt-wording.js';

/** SFS spec §2.4: the printed QR is at least 22 mm wide. */
export const QR_MIN_SIZE_MM = 22;
/** SFS spec §2.4 recommendations: online version 3 level M, offline version 5 level M. */
export const QR_ONLINE_MIN_VERSION = 3;
export const QR_OFFLINE_MIN_VERSION = 5;

/**
 * Lays a receipt out for a paper `width` in characters (32, 42, 48; any 24–80 works), in Slovak,
 * following the certified layout model (Datapac OEC's public printouts and print-output manual,
 * GitHub `datapacsro/oec`, `requests/<case>/Printout.txt`; ADR 0500):
 * merchant, point of sale, register code, dates and number, items, SUMA, VAT table, UID or PKP,
 * QR, "OVERTE DOKLAD POMOCOU QR KÓDU", OKP. Pure: the same view and width give the same blocks.
 */
export function layoutReceipt(view: ReceiptView, width: number): ReceiptLayout {
  const b = new LineBuilder(width);
  b.append(head(view, width));
  if (view.header !== undefined && view.header !== '') b.wrapped(view.header, { align: 'center' });
  b.separator();
  headings(b, view);
  documentData(b, view);
  b.separator();
  const hasItems = view.type === 'PD' || view.type === 'ND';
  if (hasItems) {
    for (const item of view.items) itemLines(b, item, vatPayer(view));
    b.separator();
  }
  totals(b, view);
  if (hasItems && vatPayer(view)) vatTable(b, view);
  validation(b, view);
  if (view.footer !== undefined && view.footer !== '') b.wrapped(view.footer, { align: 'center' });
  if (view.type === 'ND') b.heading(W.heading.ND);
  marks(b, view);
  return b.feed().cut().build();
}

/**
 * The head of a receipt — marks, logo, merchant, point of sale, register code — laid out once per
 * register and paper (ADR 1111): it is the same on every receipt until one of its inputs changes.
 * The key is every input it is laid out from, so a renewed merchant record, another point of sale,
 * a copy or demo mark, a logo or another width is a new entry, never a stale head. The blocks are
 * frozen, as every layout that shares them may be read by several outputs.
 */
const heads = new Map<string, readonly ReceiptBlock[]>();
/** Heads kept: a register has one merchant in force; copies, demo and widths make a few more. */
export const HEAD_CACHE_SIZE = 16;

function head(view: ReceiptView, width: number): readonly ReceiptBlock[] {
  const key = JSON.stringify([
    width,
    view.demo,
    view.copy,
    view.logoRef ?? null,
    view.merchant,
    view.orgUnit ?? null,
    view.portable,
    view.cashRegisterCode,
  ]);
  const known = heads.get(key);
  if (known !== undefined) return known;
  const b = new LineBuilder(width);
  marks(b, view);
  if (view.logoRef !== undefined) b.image(view.logoRef);
  merchant(b, view);
  const blocks = Object.freeze(b.build().blocks.map((block) => Object.freeze(block)));
  if (heads.size >= HEAD_CACHE_SIZE) heads.delete(heads.keys().next().value as string);
  heads.set(key, blocks);
  return blocks;
}

/** Demo and copy marks, at the top and again at the bottom (a torn receipt still shows them). */
function marks(b: LineBuilder, view: ReceiptView): void {
  if (view.demo) b.wrapped(W.demo, { align: 'center', bold: true });
  if (view.copy) b.heading(W.copy);
}

function vatPayer(view: ReceiptView): boolean {
  return view.merchant.icDph !== undefined && view.merchant.icDph !== '';
}

/** Layout model lines 1–6: name, IČO/DIČ, IČ DPH, seat, point of sale, register code. */
function merchant(b: LineBuilder, view: ReceiptView): void {
  const m = view.merchant;
  b.wrapped(m.name, { align: 'center', bold: true });
  const ids = [m.ico !== undefined ? `${W.ico} ${m.ico}` : undefined, `${W.dic} ${m.dic}`].filter(
    (s): s is string => s !== undefined,
  );
  const together = ids.join('  ');
  if (printedLength(together) <= b.width) b.wrapped(together, { align: 'center' });
  else for (const id of ids) b.wrapped(id, { align: 'center' });
  if (vatPayer(view)) b.wrapped(`${W.icDph} ${m.icDph}`, { align: 'center' });
  b.wrapped(m.seatAddress, { align: 'center' });
  const unit = view.orgUnit;
  const unitText = [unit?.name, unit?.address].filter((s) => s !== undefined && s !== '').join(', ');
  if (unitText !== '') b.wrapped(`${W.orgUnit} ${unitText}`, { align: 'center' });
  if (view.portable) b.wrapped(W.portable, { align: 'center' });
  b.pair(W.cashRegisterCode, view.cashRegisterCode);
}

function headings(b: LineBuilder, view: ReceiptView): void {
  b.heading(W.heading[view.type]);
  // An offline receipt is headed as such (vendor wording, e.g. the Kasa Fik manual,
  // manual.kasafik.cz; see ADR 0500).
  if (view.offline && view.notSent !== true) b.heading(W.offline);
  // A VK/VY the law does not let us send (Act 384/2025) is no offline document: say why it has no
  // UID instead (ADR 0515).
  else if (view.notSent === true) b.wrapped(W.notSent, { align: 'center' });
}

/** Layout model lines 7–8, plus paragón, invoice and customer data where the type has them. */
function documentData(b: LineBuilder, view: ReceiptView): void {
  b.pair(W.issueDate, view.issueDate);
  if (view.paragon !== undefined) {
    // SFS spec §3.3.12: IssueDate is the paper paragón's date, CreateDate when it was entered.
    b.pair(W.paragonCreateDate, view.paragon.createDate);
    b.pair(W.paragonNumber, String(view.paragon.number));
  }
  b.pair(W.sequenceNumber, String(view.sequenceNumber));
  b.pair(W.documentNumber, view.documentNumber);
  if (view.type === 'UF' && view.invoiceNumber !== undefined) b.pair(W.invoiceNumber, view.invoiceNumber);
  // SFS: CustomerId is not allowed on ND, VK, VY.
  if (view.customer !== undefined && (view.type === 'PD' || view.type === 'UF')) {
    b.pair(W.customer[view.customer.type], view.customer.id);
  }
}

/** Width of the VAT column after an item's total (` 23 %`). */
const RATE_COLUMN = 5;

/**
 * One item: its name, then `qty x unit price` with the line total and VAT rate, then the wording
 * of its type (voucher number, referenced document, seller, special regulation). Returnable
 * packaging (sold or bought back) prints no rate: it is outside VAT and shown as exempt under the
 * VAT table; its total stays in the column of the others (ADR 0430).
 */
function itemLines(b: LineBuilder, item: ReceiptItemView, payer: boolean): void {
  b.wrapped(item.name);
  const qty = item.unit !== undefined && item.unit !== '' ? `${item.quantity} ${item.unit}` : item.quantity;
  const packaging = item.kind === 'PACKING' || item.kind === 'PACKING_REFUND';
  const rate = !payer ? '' : packaging ? ' '.repeat(RATE_COLUMN) : ` ${`${item.vatRate} %`.padStart(4)}`;
  b.pair(`  ${qty} x ${item.unitPrice}`, `${formatCents(item.lineTotalCents)}${rate}`);
  const notes: string[] = [];
  const kind = W.itemKind[item.kind];
  if (item.kind === 'VOUCHER' && item.voucherNumber !== undefined) {
    notes.push(`${kind} ${W.voucherNumber} ${item.voucherNumber}`);
  } else if (kind !== '') notes.push(kind);
  if (item.referenceDocumentId !== undefined) notes.push(`${W.reference} ${item.referenceDocumentId}`);
  if (item.seller !== undefined)
    notes.push(`${W.seller} ${item.seller.type === 'DIC' ? 'DIČ' : 'IČ DPH'} ${item.seller.id}`);
  if (item.specialRegulation !== undefined) notes.push(W.specialRegulation[item.specialRegulation]);
  for (const note of notes) {
    for (const line of wrapIndented(note, b.width)) b.text(line);
  }
}

function wrapIndented(text: string, width: number): string[] {
  // Two spaces of indent keep the notes visibly under their item.
  return wrapText(text, width - 2).map((line) => `  ${line}`);
}

/**
 * Rounding (printed, not sent: S18, sources in ADR 0009), SUMA, payments. VK/VY print the amount
 * under their heading.
 */
function totals(b: LineBuilder, view: ReceiptView): void {
  if (view.roundingCents !== 0) b.pair(W.rounding, formatEur(view.roundingCents));
  // VK/VY: the SFS Amount of a withdrawal is positive (S2 priklad_vyber); print what was moved.
  const total = view.type === 'VK' || view.type === 'VY' ? Math.abs(view.totalCents) : view.totalCents;
  b.pair(W.total, formatEur(total), { bold: true });
  if (view.type === 'VK' || view.type === 'VY') return;
  if (total < 0) {
    // A refund: print what the customer is paid back, never "−2.50" over "Hotovosť 2.50" or 0.00.
    // Payment amounts are ≥ 0 (ADR 0403); a POS that sends 0 means "all of it, this way".
    const paid = view.payments.filter((p) => p.amountCents > 0);
    if (paid.length === 0) {
      const how = view.payments[0]?.name;
      b.pair(how === undefined ? W.paidBack : `${W.paidBack} ${how}`, formatEur(-total));
    } else for (const p of paid) b.pair(`${W.paidBack} ${p.name}`, formatEur(p.amountCents));
    return;
  }
  for (const p of view.payments) b.pair(p.name, formatEur(p.amountCents));
  // ADR 0907: the payment id is on the merchant's bank statement, the key of any complaint.
  for (const q of view.qrPayments ?? []) b.code(W.qrPaymentId, q.id);
}

/**
 * Layout model line 11: VAT per rate (base, VAT, total), for VAT payers on PD/ND; 0 % amounts
 * outside the table (S6/S7: returnable packaging is printed as "Oslobodené od DPH").
 */
function vatTable(b: LineBuilder, view: ReceiptView): void {
  if (view.vatRows.length === 0 && view.exemptRows.length === 0) return;
  b.separator('double');
  const rows: TableRow[] = [[...W.vatTable]];
  for (const r of view.vatRows) {
    rows.push([`${r.rate} %`, formatCents(r.baseCents), formatCents(r.vatCents), formatCents(r.totalCents)]);
  }
  for (const e of view.exemptRows) {
    const label = e.specialRegulation !== undefined ? W.specialRegulation[e.specialRegulation] : W.exempt;
    rows.push({ label, value: formatCents(e.totalCents) });
  }
  const bold = new Set<number>();
  if (view.vatRows.length > 0 && rows.length > 2) {
    // As the certified model: bases and VAT of the taxed rates, the total of everything (S7).
    const sum = (values: number[]) => values.reduce((a, v) => a + v, 0);
    rows.push([
      W.vatTableTotal,
      formatCents(sum(view.vatRows.map((r) => r.baseCents))),
      formatCents(sum(view.vatRows.map((r) => r.vatCents))),
      formatCents(sum([...view.vatRows, ...view.exemptRows].map((r) => r.totalCents))),
    ]);
    bold.add(rows.length - 1);
  }
  if (view.vatRows.length === 0 || !b.table(rows, bold)) stackedVatRows(b, rows);
}

/** Paper too narrow for four columns (or nothing taxed): each row as label/value lines. */
function stackedVatRows(b: LineBuilder, rows: TableRow[]): void {
  const [header, ...body] = rows;
  const titles = Array.isArray(header) ? header : [];
  for (const row of body) {
    if (!Array.isArray(row)) {
      const span = row as { label: string; value: string };
      b.pair(span.label, `${span.value} EUR`);
      continue;
    }
    b.wrapped(row[0] ?? '', { bold: true });
    for (let c = 1; c < row.length; c++) b.pair(`  ${titles[c] ?? ''}`, row[c] ?? '');
  }
}

/**
 * Layout model lines 12–15: UID (online) or PKP (offline), the QR, the verification line, OKP.
 * VK/VY carry no QR: Datapac dropped it at the SFS's request in 2024 (S6).
 */
function validation(b: LineBuilder, view: ReceiptView): void {
  b.separator();
  // SFS spec §2.9: a document without UID carries its PKP — offline, or not sent by law (ADR 0515).
  if (view.offline || view.notSent === true) b.code(W.pkp, view.pkp);
  else if (view.uid !== undefined) b.code(W.uid, view.uid);
  if (view.type !== 'VK' && view.type !== 'VY') {
    const minVersion = view.offline ? QR_OFFLINE_MIN_VERSION : QR_ONLINE_MIN_VERSION;
    b.qr(view.qrText, 'M', minVersion, QR_MIN_SIZE_MM);
    b.wrapped(W.verifyQr, { align: 'center' });
  }
  b.code(W.okp, view.okp);
}
