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
  /** Signed: money received minus money paid back under this name, as the documents carry it. */
  totalCents: number;
  /** Change given back out of what was received under this name (signed like `totalCents`). */
  changeCents: number;
  /** `totalCents − changeCents`: what stayed with the shop; the nets of a period add up to the turnover. */
  netCents: number;
  /** The name is one of the `cashPaymentNames`. */
  cash: boolean;
}

export interface CountAndTotal {
  count: number;
  totalCents: number;
}

/**
 * The shop's closing for a period (capability 12, ADR 1006), in cents. Every number is a sum over the
 * documents of the period as the CHDÚ holds them, so it can be checked against them:
 * - `counts`: every stored document by type; `notValid` those the SFS rejected and that wait for
 *   repair (stuck: stored, but not valid until repaired), `setAside` those rejected and set aside
 *   for the tax office (`POST /api/offline/set-aside`, ADR 0711: never valid) — both count nowhere
 *   else;
 * - `vatRates` / `vatTotal`: the per-rate rows of the valid PD documents (the same rows as each
 *   document's `vatRateSums`), summed per rate; UF documents have no items, hence no rows;
 * - `turnoverCents`: valid PD and UF amounts (cash rounding included); `sales`, `refunds`: PD
 *   documents with a positive or negative amount; `invoicePayments`: UF; `roundingCents`;
 * - `payments`: per payment name as the POS sent it, paid back (negative document) counting
 *   negative — with only zeros sent, the whole amount under the first name, as printed (ADR 0512);
 *   what a document's payments exceed its amount by is change given back, taken from its cash
 *   payments first (in the order sent), then from the others: `changeCents`, and `netCents` —
 *   the nets of the valid PD and UF documents add up to `turnoverCents` when every document's
 *   payments cover its amount;
 * - `deposits` (VK) and `withdrawals` (VY, as positive amounts);
 * - `cashInDrawerCents`: deposits − withdrawals + the cash part of every PD and UF: what its cash
 *   payments came to, at most the amount the other payments leave (more is change given back).
 * ND documents (not fiscal sales) are only counted.
 */
export interface DailySummary {
  counts: Record<ReceiptType, number> & { total: number };
  notValid: number;
  setAside: number;
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
    setAside: 0,
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
    // Not valid: rejected by the SFS, waiting for repair or set aside for the tax office (ADR 0711).
    if (indexed.sendState === 'stuck') {
      s.notValid++;
      continue;
    }
    if (indexed.sendState === 'set-aside') {
      s.setAside++;
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
    for (const p of withChange(paymentsOf(doc, amount), Math.abs(amount), cashNames)) {
      const row = payments.get(p.name) ?? {
        name: p.name,
        totalCents: 0,
        changeCents: 0,
        netCents: 0,
        cash: isCashPayment(p.name, cashNames),
      };
      row.totalCents += sign * p.amountCents;
      row.changeCents += sign * p.changeCents;
      row.netCents = row.totalCents - row.changeCents;
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

/**
 * Each payment with the change given back out of it: what the payments exceed the amount by,
 * taken from the cash payments first (in the order sent), then from the others — so the cash
 * payments' nets are exactly the document's cash part (`cashPart`).
 */
function withChange(
  parts: Array<{ name: string; amountCents: number }>,
  amount: number,
  cashNames: readonly string[],
): Array<{ name: string; amountCents: number; changeCents: number }> {
  let excess = Math.max(0, parts.reduce((a, p) => a + p.amountCents, 0) - amount);
  const out = parts.map((p) => ({ ...p, changeCents: 0 }));
  const cashFirst = [
    ...out.filter((p) => isCashPayment(p.name, cashNames)),
    ...out.filter((p) => !isCashPayment(p.name, cashNames)),
  ];
  for (const p of cashFirst) {
    p.changeCents = Math.min(excess, p.amountCents);
    excess -= p.changeCents;
  }
  return out;
}

/** Cash that went into (or out of) the drawer for one PD/UF, as a magnitude. */
function cashPart(doc: DocumentRecord, amount: number, cashNames: readonly string[]): number {
  const parts = paymentsOf(doc, amount);
  const cash = parts.filter((p) => isCashPayment(p.name, cashNames)).reduce((a, p) => a + p.amountCents, 0);
  const other = parts.filter((p) => !isCashPayment(p.name, cashNames)).reduce((a, p) => a + p.amountCents, 0);
  return Math.min(cash, Math.max(0, Math.abs(amount) - other));
}
