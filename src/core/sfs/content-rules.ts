import { moneyCents, rateHundredths } from './decimal-text.js';
import { type SfsViolation, violation } from './ekasa-errors.js';
import type { SfsReceiptData } from './message.js';
import {
  acceptedRecaps,
  hasRecap,
  RECAP_KEYS,
  rateAllowed,
  recapRequired,
  type VatRecap,
  type VatRegime,
} from './vat-recap.js';

/**
 * The per-type content rules of RegisterReceiptRequest (SFS spec §2.6 error table -112…-131, §5),
 * checked in the order of the table; then kasa's stricter -2 checks (ADR 0305): each item's rate
 * is allowed in the document's VAT regime, and the recap equals the one computed from the items.
 * The data must already pass the lexical checks.
 */
export function checkReceiptContent(data: SfsReceiptData, regime: VatRegime): SfsViolation | undefined {
  const type = data.ReceiptType;
  const items = data.Items ?? [];
  const noItemsType = type === 'UF' || type === 'VK' || type === 'VY';
  const itemsType = type === 'PD' || type === 'ND';

  if (type === 'UF' && data.InvoiceNumber === undefined) return violation(-112, 'UF needs InvoiceNumber');
  if (noItemsType && hasRecap(data)) return violation(-113, `${type} must not carry a VAT breakdown`);
  if (noItemsType && data.Items !== undefined) return violation(-114, `${type} must not carry items`);
  if (type !== 'UF' && data.InvoiceNumber !== undefined)
    return violation(-115, `InvoiceNumber is only for UF`);
  if (itemsType && items.length === 0) return violation(-116, `${type} needs items`);
  for (const [i, item] of items.entries()) {
    const referenced = item.ItemType === 'V' || item.ItemType === 'O';
    if (referenced && item.ReferenceReceiptId === undefined) {
      return violation(-117, `Item[${i + 1}] of type ${item.ItemType} needs ReferenceReceiptId`);
    }
    if (!referenced && item.ReferenceReceiptId !== undefined) {
      return violation(-118, `Item[${i + 1}] of type ${item.ItemType} must not carry ReferenceReceiptId`);
    }
  }
  // ADR 0423: with the old rates outside the groups, a document of old-rate items only has no
  // recap to send, so -119 cannot ask for one.
  if (
    itemsType &&
    recapRequired(regime) &&
    !hasRecap(data) &&
    acceptedRecaps(items, { regime, vatPayer: data.IcDph !== undefined }).every(hasRecap)
  )
    return violation(-119, `${type} needs a VAT breakdown`);
  if ((data.TaxBaseBasic === undefined) !== (data.BasicVatAmount === undefined)) {
    return violation(-120, 'TaxBaseBasic and BasicVatAmount go together');
  }
  if ((data.TaxBaseReduced === undefined) !== (data.ReducedVatAmount === undefined)) {
    return violation(-121, 'TaxBaseReduced and ReducedVatAmount go together');
  }
  if ((data.CustomerId === undefined) !== (data.CustomerIdType === undefined)) {
    return violation(-122, 'CustomerId and CustomerIdType go together');
  }
  const noExtrasType = type === 'ND' || type === 'VK' || type === 'VY';
  if (noExtrasType && data.CustomerId !== undefined)
    return violation(-123, `${type} must not name a customer`);
  const paragon = data.Paragon === 'true';
  if (paragon && data.ParagonNumber === undefined) return violation(-124, 'a paragón needs ParagonNumber');
  if (!paragon && data.ParagonNumber !== undefined)
    return violation(-125, 'ParagonNumber needs Paragon="true"');
  if (paragon && noExtrasType) return violation(-126, `${type} cannot be a paragón`);
  for (const [i, item] of items.entries()) {
    const at = `Item[${i + 1}]`;
    const price = moneyCents(item.Price)!;
    if (item.ItemType === 'K' && price < 0) return violation(-127, `${at}: K item with a negative Price`);
    if (['VO', 'V', 'Z', 'OZ', 'VP'].includes(item.ItemType) && price > 0) {
      return violation(-128, `${at}: ${item.ItemType} item with a positive Price`);
    }
    if ((item.SellerId === undefined) !== (item.SellerIdType === undefined)) {
      return violation(-129, `${at}: SellerId and SellerIdType go together`);
    }
    if (item.SpecialRegulation !== undefined && rateHundredths(item.VatRate) !== 0) {
      return violation(-130, `${at}: SpecialRegulation needs VatRate 0`);
    }
    if (item.VoucherNumber !== undefined && item.ItemType !== 'VP') {
      return violation(-131, `${at}: VoucherNumber is only for VP items`);
    }
  }
  return checkVatRegime(data, regime);
}

/** kasa's stricter checks (-2, ADR 0305): rates of the regime, recap consistent with the items. */
function checkVatRegime(data: SfsReceiptData, regime: VatRegime): SfsViolation | undefined {
  const items = data.Items ?? [];
  for (const [i, item] of items.entries()) {
    if (!rateAllowed(regime, rateHundredths(item.VatRate)!, item.ItemType)) {
      return violation(
        -2,
        `Item[${i + 1}]: VatRate ${item.VatRate} is not allowed on a ${item.ItemType} item in ${regime}`,
      );
    }
  }
  if (items.length === 0) return undefined;
  if (!recapRequired(regime) && !hasRecap(data)) return undefined;
  // ADR 0423: the old rates inside basic/reduced (kasa) or outside every group (literal reading).
  const candidates = acceptedRecaps(items, { regime, vatPayer: data.IcDph !== undefined });
  // An attribute sent as 0 stands for the same amount as one left out (ADR 0429: a certified
  // register sends zero pairs for groups it has no items in).
  const mismatch = (expected: VatRecap) =>
    RECAP_KEYS.find((key) => {
      const sent = data[key] === undefined ? 0 : moneyCents(data[key]!);
      const want = expected[key] === undefined ? 0 : moneyCents(expected[key]!);
      return sent !== want;
    });
  if (candidates.some((expected) => mismatch(expected) === undefined)) return undefined;
  const expected = candidates[0]!;
  const key = mismatch(expected)!;
  const other =
    candidates.length > 1
      ? ` (${candidates.length - 1} other reading(s) of the rule also accepted: ADR 0423, 0429)`
      : '';
  return violation(
    -2,
    `${key} is ${data[key] ?? 'absent'}, the items give ${expected[key] ?? 'absent'}${other}`,
  );
}
