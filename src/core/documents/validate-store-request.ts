import { invalidInput } from '../fiscal-error.js';
import { STORED_SETTINGS } from '../settings/stored-settings.js';
import type { CustomerIdType } from '../sfs/message.js';
import { parseApiDateTime } from '../time.js';
import { checkCashRounding } from './cash-rounding.js';
import {
  centsText,
  isAbsent,
  readAmountCents,
  readAsciiId,
  readBoolean,
  readExternalId,
  readOptionalNonEmpty,
  readOptionalString,
  readText,
} from './field-rules.js';
import { LIMITS } from './limits.js';
import type { ReferencedSaleDate } from './old-rate-references.js';
import type { StoreDocumentInput, ValidatedItem, ValidatedStoreRequest } from './store-request.js';
import { isSafeText } from './text-rules.js';
import { validateItems } from './validate-items.js';
import { checkRecapRange, sfsVatRecap, vatBreakdown } from './vat-breakdown.js';

export const CUSTOMER_ID_TYPES: readonly CustomerIdType[] = ['ICO', 'DIC', 'IC_DPH', 'INE'];

/** eKasa start (SFS -106: IssueDate earlier than system start): 1 Apr 2019, Bratislava time. */
export const EKASA_START: Date = new Date('2019-03-31T22:00:00Z'); // 2019-04-01T00:00:00+02:00
/** How old a paragón may be when entered (kasa's bound against typos, ADR 0403). */
export const PARAGON_MAX_AGE_DAYS = 366;

export interface StoreValidationContext {
  /** The instant that will be the document's CreateDate (whole seconds). */
  createDate: Date;
  /** The merchant has an IČ DPH (VAT payer). */
  vatPayer: boolean;
  /** Payment names meaning cash (stored setting `cashPaymentNames`; its default when absent). */
  cashPaymentNames?: readonly string[];
  /** When the sale a `referenceDocumentId` names was made, if this register holds it (ADR 0430). */
  referencedSaleDate?: ReferencedSaleDate;
}

/**
 * Validates a `POST /api/document/store` body against every rule of capability 6 and of the SFS
 * (errors -112 … -131 are caught here, before anything is stored). The first broken rule throws
 * a FiscalError 701 whose `details.field` is the field path (`documentEntries[2].vatRate`).
 * Nothing else happens on failure: this function has no effects.
 */
export function validateStoreRequest(
  input: StoreDocumentInput,
  ctx: StoreValidationContext,
): ValidatedStoreRequest {
  const body = input as unknown as Record<string, unknown>;
  if (typeof body !== 'object' || body === null) throw invalidInput('body', 'must be a JSON object');

  const type = readDocumentType(body.type);
  const payments = readPayments(body.payments);

  const externalId = readExternalId(body.externalId, 'externalId');
  const header = readPrintedText(body.header, 'header', LIMITS.headerMaxChars);
  const footer = readPrintedText(body.footer, 'footer', LIMITS.footerMaxChars);
  const electronicReceipt = readBoolean(body.electronicReceipt, 'electronicReceipt');
  const openDrawer = readBoolean(body.openDrawer, 'openDrawer');
  const exception = readBoolean(body.exception, 'exception');

  // SFS -112 / -115: InvoiceNumber exactly on UF
  const invoiceId = readAsciiId(body.invoiceId, 'invoiceId', LIMITS.invoiceIdMaxChars);
  if (type === 'UF' && invoiceId === undefined) {
    throw invalidInput('invoiceId', 'is required for a UF (invoice payment) document (SFS -112)');
  }
  if (type !== 'UF' && invoiceId !== undefined) {
    throw invalidInput('invoiceId', `is only for UF documents, not ${type} (SFS -115)`);
  }

  const paragon = readParagon(body, type, ctx.createDate);
  const customer = readCustomer(body.customer, type);

  if (isAbsent(body.amount)) throw invalidInput('amount', 'is required');
  const amountCents = readAmountCents(body.amount, 'amount');

  let items: ValidatedItem[] = [];
  let itemSumCents = 0;
  let roundingCents = 0;
  if (type === 'UF') {
    // SFS -114: no items on UF; the amount is the invoice payment itself
    if (
      !isAbsent(body.documentEntries) &&
      (!Array.isArray(body.documentEntries) || body.documentEntries.length > 0)
    ) {
      throw invalidInput('documentEntries', 'a UF (invoice payment) document has no items (SFS -114)');
    }
    if (amountCents === 0) throw invalidInput('amount', 'an invoice payment must not be 0');
  } else {
    // SFS -116: PD and ND need items
    if (
      isAbsent(body.documentEntries) ||
      (Array.isArray(body.documentEntries) && body.documentEntries.length === 0)
    ) {
      throw invalidInput('documentEntries', `a ${type} document needs at least one item (SFS -116)`);
    }
    items = validateItems(body.documentEntries, {
      vatPayer: ctx.vatPayer,
      ...(ctx.referencedSaleDate ? { referencedSaleDate: ctx.referencedSaleDate } : {}),
    });
    itemSumCents = items.reduce((sum, it) => sum + it.totalCents, 0);
    if (itemSumCents > Number(LIMITS.maxAbsAmountCents) || itemSumCents < -Number(LIMITS.maxAbsAmountCents)) {
      throw invalidInput('documentEntries', 'the item sum must be between -10000000 and 10000000');
    }
    // The recap sent with the items (sfs-receipt-data.ts) has the same range, rate group by group.
    checkRecapRange(sfsVatRecap(vatBreakdown(items, ctx.vatPayer), ctx.vatPayer), 'documentEntries');
    // ADR 0420: only a part paid in cash may be rounded to 5 cents.
    const cashNames = ctx.cashPaymentNames ?? STORED_SETTINGS.cashPaymentNames.defaultValue;
    const rounding = checkCashRounding(amountCents, itemSumCents, payments, cashNames);
    if (!rounding.ok) {
      const allowed = rounding.expectedCents.map(centsText).join(' or ');
      throw invalidInput(
        'amount',
        `${centsText(amountCents)} does not match the item sum ${centsText(itemSumCents)}: ${rounding.reason}; expected ${allowed}`,
      );
    }
    roundingCents = rounding.roundingCents;
  }

  const result: ValidatedStoreRequest = {
    kind: 'store',
    type,
    amountCents,
    itemSumCents,
    roundingCents,
    items,
    payments,
    electronicReceipt,
    openDrawer,
    exception,
  };
  if (externalId !== undefined) result.externalId = externalId;
  if (invoiceId !== undefined) result.invoiceId = invoiceId;
  if (paragon !== undefined) result.paragon = paragon;
  if (header !== undefined) result.header = header;
  if (footer !== undefined) result.footer = footer;
  if (customer !== undefined) result.customer = customer;
  return result;
}

function readDocumentType(value: unknown): 'PD' | 'UF' | 'ND' {
  if (isAbsent(value)) throw invalidInput('type', 'is required (PD, UF or ND)');
  if (value === 'PD' || value === 'UF' || value === 'ND') return value;
  if (value === 'VK' || value === 'VY') {
    throw invalidInput(
      'type',
      `${value} (cash deposit/withdrawal) is created through POST /api/cash, not here`,
    );
  }
  throw invalidInput('type', `unknown document type ${JSON.stringify(value)}; one of PD, UF, ND`);
}

/** ADR 0008 §9: `payments` is required; names are free text, amounts ≥ 0 with 2 decimals. */
function readPayments(value: unknown): Array<{ name: string; amountCents: number }> {
  if (isAbsent(value))
    throw invalidInput('payments', 'is required: an object of payment name → amount, e.g. {"Cash": 12.30}');
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalidInput('payments', 'must be an object of payment name → amount');
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > LIMITS.maxPayments)
    throw invalidInput('payments', `at most ${LIMITS.maxPayments} payment methods`);
  return entries.map(([name, amount]) => {
    const field = `payments.${name}`;
    if (name.trim().length === 0 || [...name].length > LIMITS.paymentNameMaxChars) {
      throw invalidInput(field, `a payment name must be 1–${LIMITS.paymentNameMaxChars} characters`);
    }
    if (!isSafeText(name, { allowNewlines: false, allowTab: false })) {
      throw invalidInput(field, 'a payment name must not contain control characters');
    }
    const amountCents = readAmountCents(amount, field);
    if (amountCents < 0) throw invalidInput(field, 'a payment amount must not be negative');
    return { name, amountCents };
  });
}

/**
 * Printed texts: no control characters except CR and LF (S9, sources in ADR 0009), bounded length
 * (ADR 0403).
 */
function readPrintedText(value: unknown, field: string, max: number): string | undefined {
  return readText(value, field, max, { allowNewlines: true, allowTab: false });
}

/** SFS -124 / -125 / -126: paragonNumber and paragonDate both or neither; never on ND. */
function readParagon(
  body: Record<string, unknown>,
  type: 'PD' | 'UF' | 'ND',
  createDate: Date,
): { number: number; issueDate: Date } | undefined {
  const hasNumber = !isAbsent(body.paragonNumber);
  const hasDate = !isAbsent(body.paragonDate);
  if (!hasNumber && !hasDate) return undefined;
  if (type === 'ND') {
    throw invalidInput(
      hasNumber ? 'paragonNumber' : 'paragonDate',
      'an ND document cannot be a paragón (SFS -126)',
    );
  }
  if (!hasDate) throw invalidInput('paragonDate', 'is required with paragonNumber (SFS -124)');
  if (!hasNumber) throw invalidInput('paragonNumber', 'is required with paragonDate (SFS -124)');

  const number = body.paragonNumber;
  if (
    typeof number !== 'number' ||
    !Number.isInteger(number) ||
    number < 1 ||
    number > LIMITS.maxParagonNumber
  ) {
    throw invalidInput('paragonNumber', `must be a whole number from 1 to ${LIMITS.maxParagonNumber}`);
  }
  const dateText = readOptionalString(body.paragonDate, 'paragonDate');
  const parsed = dateText === undefined ? undefined : parseApiDateTime(dateText);
  if (parsed === undefined) {
    throw invalidInput('paragonDate', 'must be a date-time "dd.MM.yyyy HH:mm:ss" or ISO 8601 with an offset');
  }
  // SFS dateTime has whole seconds
  const issueDate = new Date(Math.floor(parsed.getTime() / 1000) * 1000);
  if (issueDate.getTime() > createDate.getTime()) {
    throw invalidInput('paragonDate', 'must not be in the future (SFS -103)');
  }
  if (issueDate.getTime() < EKASA_START.getTime()) {
    throw invalidInput('paragonDate', 'must not be before the eKasa start on 1 Apr 2019 (SFS -106)');
  }
  if (createDate.getTime() - issueDate.getTime() > PARAGON_MAX_AGE_DAYS * 86_400_000) {
    throw invalidInput('paragonDate', `must not be more than ${PARAGON_MAX_AGE_DAYS} days old`);
  }
  return { number, issueDate };
}

/** SFS -122 / -123: CustomerId and CustomerIdType both or neither; no customer on ND. */
function readCustomer(
  value: unknown,
  type: 'PD' | 'UF' | 'ND',
): { id: string; type: CustomerIdType } | undefined {
  if (isAbsent(value)) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalidInput('customer', 'must be an object {id, customerIdType}');
  }
  const c = value as Record<string, unknown>;
  const id = readOptionalNonEmpty(c.id, 'customer.id');
  const primary = readOptionalNonEmpty(c.customerIdType, 'customer.customerIdType');
  const alias = readOptionalNonEmpty(c.type, 'customer.type');
  if (primary !== undefined && alias !== undefined && primary !== alias) {
    throw invalidInput('customer.type', 'differs from customer.customerIdType; send one of them');
  }
  const idType = primary ?? alias;
  const typeField =
    primary !== undefined || alias === undefined ? 'customer.customerIdType' : 'customer.type';
  if (id === undefined && idType === undefined) return undefined;
  if (type === 'ND') throw invalidInput('customer', 'an ND document carries no customer (SFS -123)');
  if (id === undefined) throw invalidInput('customer.id', 'is required with customerIdType (SFS -122)');
  if (idType === undefined) throw invalidInput('customer.customerIdType', 'is required with id (SFS -122)');
  if (!LIMITS.partyIdPattern.test(id))
    throw invalidInput('customer.id', 'must be 1–50 letters or digits (SFS CustomerId)');
  const found = CUSTOMER_ID_TYPES.find((t) => t === idType);
  if (!found)
    throw invalidInput(
      typeField,
      `unknown customerIdType '${idType}'; one of ${CUSTOMER_ID_TYPES.join(', ')}`,
    );
  return { id, type: found };
}
