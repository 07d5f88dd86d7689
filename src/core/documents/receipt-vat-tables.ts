import type { ReceiptExemptRow, ReceiptVatRow } from '../receipt/receipt-model.js';
import type { SfsReceiptData, SpecialRegulation } from '../sfs/message.js';
import { parseCentsText } from './decimal.js';
import { SPECIAL_REGULATIONS } from './validate-items.js';
import { vatBreakdown } from './vat-breakdown.js';
import { vatRateFromSfs } from './vat-rates.js';

/**
 * The VAT table of a printed receipt (`ReceiptViewSource.vatRows` / `exemptRows`), computed from
 * the stored SFS items with the same per-rate rounding as the SFS recap and `vatRateSums`
 * (ADR 0401), so paper, message and response never disagree.
 * - `vatRows`: one row per non-zero rate present (23, 20, 19, 10, 5), for a VAT payer;
 * - `exemptRows`: the 0 % lines, one row for plain exempt lines (returnable packaging, exempt
 *   supplies) and one per special regulation, in the order PDP, OOD, CK, PT, UD, ZPS.
 */
export function receiptVatTables(sfs: SfsReceiptData): {
  vatRows: ReceiptVatRow[];
  exemptRows: ReceiptExemptRow[];
} {
  const lines = (sfs.Items ?? []).flatMap((item) => {
    const rate = vatRateFromSfs(item.VatRate);
    const totalCents = parseCentsText(item.Price);
    if (!rate || totalCents === undefined)
      throw new RangeError(`unreadable item ${item.Name}: ${item.VatRate} ${item.Price}`);
    return [{ vatRate: rate, totalCents, specialRegulation: item.SpecialRegulation }];
  });
  const vatPayer = sfs.IcDph !== undefined;
  const vatRows: ReceiptVatRow[] = vatBreakdown(
    lines.filter((l) => l.vatRate.hundredths !== 0),
    vatPayer,
  ).map((r) => ({
    rate: r.rate.hundredths / 100,
    baseCents: r.baseCents,
    vatCents: r.vatCents,
    totalCents: r.grossCents,
  }));

  const exempt = new Map<SpecialRegulation | undefined, number>();
  for (const line of lines) {
    if (line.vatRate.hundredths !== 0) continue;
    exempt.set(line.specialRegulation, (exempt.get(line.specialRegulation) ?? 0) + line.totalCents);
  }
  const exemptRows: ReceiptExemptRow[] = [];
  for (const key of [undefined, ...SPECIAL_REGULATIONS]) {
    const total = exempt.get(key);
    if (total === undefined) continue;
    exemptRows.push(
      key === undefined ? { totalCents: total } : { specialRegulation: key, totalCents: total },
    );
  }
  return { vatRows, exemptRows };
}
