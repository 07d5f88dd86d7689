import type { SfsItem, SfsReceiptData } from '../sfs/message.js';
import { formatSfsDateTime } from '../time.js';
import { formatCents, formatScaled, QUANTITY_SCALE } from './decimal.js';
import type { DocumentNumbering } from './numbering.js';
import type { ValidatedCashRequest, ValidatedItem, ValidatedStoreRequest } from './store-request.js';
import { sfsVatRecap, vatBreakdown } from './vat-breakdown.js';

/** The merchant data that go into every message (from the merchant record in force). */
export interface MerchantIdentity {
  dic: string;
  ico?: string | undefined;
  icDph?: string | undefined;
  cashRegisterCode: string;
}

/** A merchant with an IČ DPH is a VAT payer (reference §1.4: IcDph mandatory for VAT payers). */
export function isVatPayer(merchant: Pick<MerchantIdentity, 'icDph'>): boolean {
  return merchant.icDph !== undefined && merchant.icDph !== '';
}

/**
 * The SFS `ReceiptData` of a validated request, every value in its XSD lexical form (these exact
 * strings are signed in the PKP, stored and sent). Per type (SFS §5, errors -112 … -126):
 * - PD/ND: items + VAT recap; ND has no customer and no paragón; no InvoiceNumber.
 * - UF: InvoiceNumber, no items, no recap.
 * - VK/VY: only the identity attributes and Amount; Amount is positive for VY too, as in the
 *   official sample `priklad_vyber_20190131.xml` (ReceiptType="VY" Amount="100.00").
 * `createDate` must be a whole-second instant ({@link fiscalInstant}).
 */
export function buildSfsReceiptData(
  request: ValidatedStoreRequest | ValidatedCashRequest,
  merchant: MerchantIdentity,
  numbering: DocumentNumbering,
  createDate: Date,
): SfsReceiptData {
  const created = formatSfsDateTime(createDate);
  const issued =
    request.kind === 'store' && request.paragon ? formatSfsDateTime(request.paragon.issueDate) : created;
  const data: SfsReceiptData = {
    ReceiptType: request.type,
    Dic: merchant.dic,
    CashRegisterCode: merchant.cashRegisterCode,
    IssueDate: issued,
    CreateDate: created,
    ReceiptNumber: String(numbering.sequenceId),
    Paragon: 'false',
    // VY: the positive amount withdrawn (official sample); PD/ND/UF: signed (a refund may be negative)
    Amount: formatCents(request.kind === 'cash' ? Math.abs(request.amountCents) : request.amountCents),
  };
  if (isVatPayer(merchant)) data.IcDph = merchant.icDph!;
  const ico = normaliseIco(merchant.ico);
  if (ico !== undefined) data.Ico = ico;
  if (request.kind === 'cash') return data;

  if (request.type === 'UF') data.InvoiceNumber = request.invoiceId!;
  if (request.paragon) {
    data.Paragon = 'true';
    data.ParagonNumber = String(request.paragon.number);
  }
  if (request.customer) {
    data.CustomerId = request.customer.id;
    data.CustomerIdType = request.customer.type;
  }
  if (request.type !== 'UF') {
    Object.assign(data, sfsVatRecap(vatBreakdown(request.items, isVatPayer(merchant)), isVatPayer(merchant)));
    data.Items = request.items.map(toSfsItem);
  }
  return data;
}

function toSfsItem(item: ValidatedItem): SfsItem {
  const sfs: SfsItem = {
    ItemType: item.itemType.sfs,
    Name: item.name,
    Price: formatCents(item.totalCents),
    Quantity: formatScaled(item.quantityUnits, QUANTITY_SCALE),
    VatRate: item.vatRate.sfs,
  };
  if (item.specialRegulation !== undefined) sfs.SpecialRegulation = item.specialRegulation;
  if (item.seller !== undefined) {
    sfs.SellerId = item.seller.id;
    sfs.SellerIdType = item.seller.type;
  }
  // SFS -131: VoucherNumber only on VP; a SALE's voucherNumber stays in the record only
  if (item.itemType.sfs === 'VP' && item.voucherNumber !== undefined) sfs.VoucherNumber = item.voucherNumber;
  if (item.referenceDocumentId !== undefined) sfs.ReferenceReceiptId = item.referenceDocumentId;
  return sfs;
}

/** SFS Ico is `[0-9]{8}`; a 6-digit IČO is left-padded with `00` (reference §1.4). */
function normaliseIco(ico: string | undefined): string | undefined {
  if (ico === undefined || ico === '') return undefined;
  return /^\d{6}$/.test(ico) ? `00${ico}` : ico;
}
