import { isCashPayment } from '../documents/cash-rounding.js';
import { parseCentsText } from '../documents/decimal.js';
import { vatBreakdown } from '../documents/vat-breakdown.js';
import { VAT_RATES, type VatRateName, vatRateFromSfs } from '../documents/vat-rates.js';
import type { DocumentRecord } from '../journal/records.js';
import type { IndexedDocument } from '../ports/journal-index.js';
import type { ReceiptType } from '../sfs/message.js';

/** One VAT rate over the period: the sums of the documents' own per-rate rows (ADR 1006). */
export interface SummaryVatRow {
  title: VatRateName;
  baseCents: number;
  vatCents: number;
  grossCents: number;
}

export interface SummaryPayment {
  name: string;
  /** Signed: money received minus money paid back under this name. */
  totalCents: number;
  /** The name is one of the `cashPaymentNames`. */
  cash: boolean;
}

export interface CountAndTotal {
  count: number;
  totalCents: number;
}

/**
 * The shop's closing for a period (issue 12, ADR 1006), in cents. Every number is a sum over the
 * documents of the period as the CHDÚ holds them, so it can be checked against them:
 * - `counts`: every stored document by type, `notValid` those the SFS rejected (stuck: stored,
 *   but not valid until repaired) — they count nowhere else;
 * - `vatRates` / `vatTotal`: the per-rate rows of the valid PD documents (the same rows as each
 *   document's `vatRateSums`), summed per rate; UF documents have no items, hence no rows;
 * - `turnoverCents`: valid PD and UF amounts (cash rounding included); `sales`, `refunds`: PD
 *   documents with a positive or negative amount; `invoicePayments`: UF; `roundingCents`;
 * - `payments`: per payment name as the POS sent it, paid back (negative document) counting
 *   negative — with only zeros sent, the whole amount under the first name, as printed (ADR 0512);
 * - `deposits` (VK) and `withdrawals` (VY, as positive amounts);
 * - `cashInDrawerCents`: deposits − withdrawals + the cash part of every PD and UF: what its cash
 *   payments came to, at most the amount the other payments leave (more is change given back).
 * ND documents (not fiscal sales) are only counted.
 */
export interface DailySummary {
  counts: Record<ReceiptType, number> & { total: number };
  notValid: number;
  vatRates: SummaryVatRow[];
  vatTotal: { baseCents: number; vatCents: number; grossCents: number };
  turnoverCents: number;
  sales: CountAndTotal;
  refunds: CountAndTotal;
  invoicePayments: CountAndTotal;
  roundingCents: number;
  payments: SummaryPayment[];
  deposits: CountAndTotal;
  withdrawals: CountAndTotal;
  cashInDrawerCents: number;
}

const amountCents = (doc: DocumentRecord): number => {
  const cents = parseCentsText(doc.sfs.Amount);
  if (cents === undefined) throw new RangeError(`document ${doc.documentNumber}: unreadable amount`);
  return cents;
};

export function dailySummary(
  documents: readonly IndexedDocument[],
  cashNames: readonly string[],
): DailySummary {
  const counts = { PD: 0, UF: 0, ND: 0, VK: 0, VY: 0, total: 0 };
  const vat = new Map<VatRateName, SummaryVatRow>();
  const payments = new Map<string, SummaryPayment>();
  const s = {
    notValid: 0,
    turnoverCents: 0,
    sales: { count: 0, totalCents: 0 },
    refunds: { count: 0, totalCents: 0 },
    invoicePayments: { count: 0, totalCents: 0 },
    roundingCents: 0,
    deposits: { count: 0, totalCents: 0 },
    withdrawals: { count: 0, totalCents: 0 },
    cashInDrawerCents: 0,
  };
  for (const indexed of documents) {
    const doc = indexed.document;
    const type = doc.sfs.ReceiptType;
    counts[type]++;
    counts.total++;
    if (indexed.sendState === 'stuck') {
      s.notValid++;
      continue;
    }
    const amount = type === 'VY' ? -Math.abs(amountCents(doc)) : amountCents(doc);
    if (type === 'VK') {
      add(s.deposits, amount);
      s.cashInDrawerCents += amount;
      continue;
    }
    if (type === 'VY') {
      add(s.withdrawals, -amount);
      s.cashInDrawerCents += amount;
      continue;
    }
    if (type === 'ND') continue;
    s.turnoverCents += amount;
    s.roundingCents += doc.roundingCents;
    if (type === 'UF') add(s.invoicePayments, amount);
    else if (amount < 0) add(s.refunds, amount);
    else add(s.sales, amount);
    if (type === 'PD') addVatRows(vat, doc);
    const sign = amount < 0 ? -1 : 1;
    for (const p of paymentsOf(doc, amount)) {
      const row = payments.get(p.name) ?? {
        name: p.name,
        totalCents: 0,
        cash: isCashPayment(p.name, cashNames),
      };
      row.totalCents += sign * p.amountCents;
      payments.set(p.name, row);
    }
    s.cashInDrawerCents += sign * cashPart(doc, amount, cashNames);
  }
  const vatRates = VAT_RATES.flatMap((r) => vat.get(r.name) ?? []);
  return {
    counts,
    ...s,
    vatRates,
    vatTotal: {
      baseCents: vatRates.reduce((a, r) => a + r.baseCents, 0),
      vatCents: vatRates.reduce((a, r) => a + r.vatCents, 0),
      grossCents: vatRates.reduce((a, r) => a + r.grossCents, 0),
    },
    payments: [...payments.values()],
  };
}

function add(target: CountAndTotal, cents: number): void {
  target.count++;
  target.totalCents += cents;
}

/** The document's own per-rate rows (as its `vatRateSums`), added to the period's. */
function addVatRows(vat: Map<VatRateName, SummaryVatRow>, doc: DocumentRecord): void {
  const items = (doc.sfs.Items ?? []).flatMap((item) => {
    const rate = vatRateFromSfs(item.VatRate);
    const totalCents = parseCentsText(item.Price);
    return rate && totalCents !== undefined ? [{ vatRate: rate, totalCents }] : [];
  });
  for (const row of vatBreakdown(items, doc.sfs.IcDph !== undefined)) {
    const sum = vat.get(row.rate.name) ?? { title: row.rate.name, baseCents: 0, vatCents: 0, grossCents: 0 };
    sum.baseCents += row.baseCents;
    sum.vatCents += row.vatCents;
    sum.grossCents += row.grossCents;
    vat.set(row.rate.name, sum);
  }
}

/**
 * The payments as magnitudes. A refund whose payments are all 0 paid back the whole amount under
 * the first name — what its receipt prints (ADR 0512).
 */
function paymentsOf(doc: DocumentRecord, amount: number): Array<{ name: string; amountCents: number }> {
  const paid = doc.payments.filter((p) => p.amountCents > 0);
  if (amount < 0 && paid.length === 0 && doc.payments[0] !== undefined) {
    return [{ name: doc.payments[0].name, amountCents: -amount }];
  }
  return paid;
}

/** Cash that went into (or out of) the drawer for one PD/UF, as a magnitude. */
function cashPart(doc: DocumentRecord, amount: number, cashNames: readonly string[]): number {
  const parts = paymentsOf(doc, amount);
  const cash = parts.filter((p) => isCashPayment(p.name, cashNames)).reduce((a, p) => a + p.amountCents, 0);
  const other = parts.filter((p) => !isCashPayment(p.name, cashNames)).reduce((a, p) => a + p.amountCents, 0);
  return Math.min(cash, Math.max(0, Math.abs(amount) - other));
}
