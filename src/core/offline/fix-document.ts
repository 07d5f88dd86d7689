import { cashRoundedAmount } from '../documents/cash-rounding.js';
import {
  AMOUNT_SCALE,
  formatCents,
  formatScaled,
  lineTotalCents,
  parseCentsText,
  QUANTITY_SCALE,
  toScaledInteger,
  UNIT_PRICE_SCALE,
} from '../documents/decimal.js';
import { isAbsent, readAsciiId, readScaled, readText } from '../documents/field-rules.js';
import { resolveItemType } from '../documents/item-types.js';
import { LIMITS } from '../documents/limits.js';
import { fiscalInstant, fiscalMonth } from '../documents/numbering.js';
import { isNotBlank } from '../documents/text-rules.js';
import { checkReductions, type ReducibleItem, SPECIAL_REGULATIONS } from '../documents/validate-items.js';
import { checkRecapRange } from '../documents/vat-breakdown.js';
import { vatRateFromSfs } from '../documents/vat-rates.js';
import { invalidInput } from '../fiscal-error.js';
import type { DocumentRecord } from '../journal/records.js';
import type { IndexedDocument } from '../ports/indexed-records.js';
import type { SfsItem, SfsReceiptData, SpecialRegulation } from '../sfs/message.js';
import { computeVatRecap, RECAP_KEYS, vatRegimeAt } from '../sfs/vat-recap.js';
import { formatApiDateTime, formatSfsDateTime, parseApiDateTime, parseSfsDateTime } from '../time.js';

/** `fixDocument` of `POST /api/document/update` (API v1.7 text, models other vendors of the same API add, capability 10). */
export interface FixDocumentInput {
  useLastMerchant?: boolean | null | undefined;
  createDate?: string | null | undefined;
  issueDate?: string | null | undefined;
  invoiceId?: string | null | undefined;
  /** By position; `{}` (or null) leaves an item as it is. */
  documentEntries?: ReadonlyArray<FixEntryInput | null | undefined> | null | undefined;
}

export interface FixEntryInput {
  name?: string | null | undefined;
  quantity?: number | null | undefined;
  /**
   * The issue's `specialRegulationChange {newValue}`: a new special regulation, or `null` to remove
   * it. (On an item of a store `specialRegulation` is a plain string; a change is an object of its
   * own name so the two never mean different things under one name — ADR 0708.)
   */
  specialRegulationChange?: { newValue?: string | null | undefined } | null | undefined;
}

/** The document issued before the one repaired: the previous by number that is not set aside. */
export interface PreviousDocument {
  documentNumber: string;
  createDate: Date;
}

/** The merchant identity a `useLastMerchant` fix moves the document to. */
export interface FixIdentity {
  recordNo: number;
  dic: string;
  icDph?: string | undefined;
  ico?: string | undefined;
  cashRegisterCode: string;
}

export interface FixedDocument {
  sfs: SfsReceiptData;
  roundingCents: number;
  /** True when a PKP field (CreateDate, Amount, Dic, CashRegisterCode) or the signing key changed. */
  resign: boolean;
  merchantRecordNo?: number;
  /** What was changed, for the repair record. */
  changes: Record<string, unknown>;
}

/**
 * Applies a fix to a stuck document with only the data sent (capability 10; docs/offline.md has the
 * table of SFS codes and the fix that clears each). The number stays (ADR 0008 §5), so the new
 * CreateDate must stay in the same calendar month and not lie before the CreateDate of the document
 * issued before it (`ctx.previous`, ADR 0117); dates never lie in the future. A local date-time of
 * the repeated autumn hour names two instants: see {@link readFixDate}. An empty fix
 * changes nothing: the document is sent again as it is (a fresh signature and SendingCount + 1),
 * which clears an answer that could not be trusted (602) or a transient signature error (-10).
 *
 * @throws FiscalError 701 naming the field (`fixDocument.…`) and the rule.
 */
export function applyDocumentFix(
  doc: DocumentRecord,
  fix: FixDocumentInput,
  ctx: {
    now: Date;
    lastMerchant: FixIdentity;
    cashPaymentNames: readonly string[];
    previous?: PreviousDocument | undefined;
  },
): FixedDocument {
  const sfs: SfsReceiptData = structuredClone(doc.sfs);
  const changes: Record<string, unknown> = {};
  let resign = false;
  let merchantRecordNo: number | undefined;
  const paragon = sfs.Paragon === 'true';

  if (fix.useLastMerchant === true) {
    const m = ctx.lastMerchant;
    sfs.Dic = m.dic;
    sfs.CashRegisterCode = m.cashRegisterCode;
    if (m.icDph) sfs.IcDph = m.icDph;
    else delete sfs.IcDph;
    if (m.ico) sfs.Ico = /^\d{6}$/.test(m.ico) ? `00${m.ico}` : m.ico;
    else delete sfs.Ico;
    merchantRecordNo = m.recordNo;
    changes.useLastMerchant = true;
    resign = true;
  }

  if (!isAbsent(fix.createDate)) {
    const original = parseSfsDateTime(doc.sfs.CreateDate)!;
    const previous = ctx.previous;
    const created = readFixDate(fix.createDate, 'fixDocument.createDate', {
      now: ctx.now,
      current: original,
      earliest:
        previous === undefined
          ? undefined
          : {
              at: previous.createDate,
              rule: `the creation time of document ${previous.documentNumber}, the one issued before it`,
            },
    });
    const a = fiscalMonth(created);
    const b = fiscalMonth(original);
    if (a.year !== b.year || a.month !== b.month) {
      throw invalidInput(
        'fixDocument.createDate',
        `must stay in ${b.month}/${b.year}: the receipt number ${doc.sfs.ReceiptNumber} belongs to that month`,
      );
    }
    sfs.CreateDate = formatSfsDateTime(created);
    // IssueDate equals CreateDate except for a paragón (SFS §3.3.12).
    if (!paragon) sfs.IssueDate = sfs.CreateDate;
    changes.createDate = sfs.CreateDate;
    resign = true;
  }

  if (!isAbsent(fix.issueDate)) {
    if (!paragon) {
      throw invalidInput(
        'fixDocument.issueDate',
        'only a paragón has its own issueDate; fix createDate instead',
      );
    }
    const createdAt = parseSfsDateTime(sfs.CreateDate)!;
    const issued = readFixDate(fix.issueDate, 'fixDocument.issueDate', {
      now: ctx.now,
      current: parseSfsDateTime(doc.sfs.IssueDate) ?? createdAt,
      latest: { at: createdAt, rule: 'createDate' },
    });
    sfs.IssueDate = formatSfsDateTime(issued);
    changes.issueDate = sfs.IssueDate;
  }

  if (!isAbsent(fix.invoiceId)) {
    if (sfs.ReceiptType !== 'UF') {
      throw invalidInput('fixDocument.invoiceId', 'only an invoice payment (UF) has an invoice number');
    }
    const invoiceId = readAsciiId(fix.invoiceId, 'fixDocument.invoiceId', LIMITS.invoiceIdMaxChars);
    if (invoiceId === undefined) throw invalidInput('fixDocument.invoiceId', 'must be 1–50 characters');
    sfs.InvoiceNumber = invoiceId;
    changes.invoiceId = invoiceId;
  }

  let roundingCents = doc.roundingCents;
  if (!isAbsent(fix.documentEntries)) {
    const itemsChanged = fixItems(doc, sfs, fix.documentEntries, changes);
    if (itemsChanged) {
      const items = sfs.Items ?? [];
      // The rules the store checks between items hold for the repaired items too (ADR 0430).
      const reducible = items.map(reducibleItem);
      if (reducible.every((i) => i !== undefined)) {
        checkReductions(reducible, (i) => `fixDocument.documentEntries[${i}].quantity`);
      }
      const sum = items.reduce((s, i) => s + (parseCentsText(i.Price) ?? 0), 0);
      // The cash rounding is kept as it was chosen: a rounded document stays rounded, and only its
      // part paid in cash is rounded, the non-cash payments taken as paid exactly (ADR 0420).
      const amount =
        doc.roundingCents !== 0 ? cashRoundedAmount(sum, doc.payments, ctx.cashPaymentNames) : sum;
      roundingCents = amount - sum;
      if (Math.abs(amount) > Number(LIMITS.maxAbsAmountCents)) {
        throw invalidInput(
          'fixDocument.documentEntries',
          'the new total must be between -10000000 and 10000000',
        );
      }
      if (sfs.Amount !== formatCents(amount)) resign = true;
      sfs.Amount = formatCents(amount);
      for (const key of RECAP_KEYS) delete sfs[key];
      const regime = vatRegimeAt(parseSfsDateTime(sfs.CreateDate)!);
      const recap = computeVatRecap(items, { regime, vatPayer: sfs.IcDph !== undefined });
      checkRecapRange(recap, 'fixDocument.documentEntries');
      Object.assign(sfs, recap);
    }
  }

  return {
    sfs,
    roundingCents,
    resign,
    ...(merchantRecordNo === undefined ? {} : { merchantRecordNo }),
    changes,
  };
}

/**
 * Whether the customer already holds the document (ADR 0712): its original was printed (or handed
 * over as an electronic receipt), or a failed print got as far as the paper. What they hold shows
 * the PKP, OKP, CreateDate, items and amount as they were signed, so the SFS must get exactly that.
 */
export function handedOver(doc: Pick<IndexedDocument, 'printState' | 'printStarted'>): boolean {
  return doc.printState === 'printed' || doc.printState === 'electronic' || doc.printStarted === true;
}

/**
 * The members of a fix that would change the document, as field paths (`fixDocument.createDate`,
 * `fixDocument.documentEntries[2]`); empty for `{}` and for entries that are all `{}` or null.
 */
export function changingMembers(fix: FixDocumentInput): string[] {
  const given: string[] = [];
  if (fix.useLastMerchant === true) given.push('fixDocument.useLastMerchant');
  for (const key of ['createDate', 'issueDate', 'invoiceId'] as const) {
    if (!isAbsent(fix[key])) given.push(`fixDocument.${key}`);
  }
  if (Array.isArray(fix.documentEntries)) {
    fix.documentEntries.forEach((entry, i) => {
      if (isAbsent(entry)) return;
      const e = entry as FixEntryInput;
      if (!isAbsent(e.name) || !isAbsent(e.quantity) || !isAbsent(e.specialRegulationChange))
        given.push(`fixDocument.documentEntries[${i}]`);
    });
  }
  return given;
}

/** A bound on a fix date: the instant and what it is, for the refusal. */
interface DateBound {
  at: Date;
  rule: string;
}

const LOCAL_DATE_TIME = /^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}$/;
const HOUR_MS = 3_600_000;

/**
 * The instant a fix date names, within its bounds (never in the future; `earliest`, `latest` when
 * given), else 701 naming `field` and both times. ISO 8601 with an offset names one instant. The
 * API's `dd.MM.yyyy HH:mm:ss` is Bratislava wall time without an offset — the form the API prints
 * CreateDate in — so a time of the repeated autumn hour (e.g. 25.10.2026 02:00–02:59) names two
 * instants, an hour apart (ADR 0708 as amended): the text that shows the date being fixed
 * (`current`) means that same instant; any other means the earlier of the two that lies within
 * the bounds. To name the later one when both do, send ISO 8601 with `+01:00`.
 */
function readFixDate(
  value: unknown,
  field: string,
  bounds: { now: Date; current: Date; earliest?: DateBound | undefined; latest?: DateBound },
): Date {
  if (typeof value !== 'string')
    throw invalidInput(field, 'must be a string: dd.MM.yyyy HH:mm:ss or ISO 8601');
  const parsed = parseApiDateTime(value);
  if (!parsed)
    throw invalidInput(field, 'must be dd.MM.yyyy HH:mm:ss (Bratislava time) or ISO 8601 with an offset');
  const first = fiscalInstant(parsed);
  const later = new Date(first.getTime() + HOUR_MS);
  let candidates = [first];
  if (LOCAL_DATE_TIME.test(value) && formatApiDateTime(later) === formatApiDateTime(first)) {
    candidates = [first, later];
    const current = candidates.find((c) => c.getTime() === bounds.current.getTime());
    if (current !== undefined) candidates = [current];
  }
  const broken = candidates.map((c) => brokenBound(c, bounds));
  const fitting = candidates.find((_, i) => broken[i] === undefined);
  if (fitting !== undefined) return fitting;
  // None fits: name the earlier one (the only one, outside the repeated hour).
  const twice =
    candidates.length === 2
      ? ` ("${value}" falls in the repeated autumn hour: ${formatSfsDateTime(first)} or ${formatSfsDateTime(later)}, and neither fits)`
      : '';
  throw invalidInput(field, `${broken[0]}${twice}`);
}

/** Why an instant breaks the bounds of a fix date, with both times; undefined when it does not. */
function brokenBound(
  instant: Date,
  bounds: { now: Date; earliest?: DateBound | undefined; latest?: DateBound },
): string | undefined {
  const at = formatSfsDateTime(instant);
  if (instant.getTime() > bounds.now.getTime()) {
    return `must not be in the future: ${at} is after the register's clock (${formatSfsDateTime(bounds.now)})`;
  }
  const { earliest, latest } = bounds;
  if (earliest !== undefined && instant.getTime() < earliest.at.getTime()) {
    return `must not be before ${earliest.rule} (${formatSfsDateTime(earliest.at)}): ${at} is earlier`;
  }
  if (latest !== undefined && instant.getTime() > latest.at.getTime()) {
    return `must not be later than ${latest.rule} (${formatSfsDateTime(latest.at)}): ${at} is later`;
  }
  return undefined;
}

/** A repaired item as the reduction check reads it; undefined for one kasa could not have written. */
function reducibleItem(item: SfsItem): ReducibleItem | undefined {
  const itemType = resolveItemType(item.ItemType);
  const vatRate = vatRateFromSfs(item.VatRate);
  const totalCents = parseCentsText(item.Price);
  if (itemType === undefined || vatRate === undefined || totalCents === undefined) return undefined;
  return { itemType, vatRate, totalCents };
}

/** Applies the item fixes by position; true when a line total changed. */
function fixItems(
  doc: DocumentRecord,
  sfs: SfsReceiptData,
  entries: NonNullable<FixDocumentInput['documentEntries']>,
  changes: Record<string, unknown>,
): boolean {
  const items = sfs.Items ?? [];
  if (!Array.isArray(entries)) throw invalidInput('fixDocument.documentEntries', 'must be a list');
  if (entries.length > items.length) {
    throw invalidInput(
      `fixDocument.documentEntries[${items.length}]`,
      `the document has ${items.length} item(s); entries go by position`,
    );
  }
  let totalsChanged = false;
  const itemChanges: Array<Record<string, unknown>> = [];
  entries.forEach((entry, i) => {
    const at = `fixDocument.documentEntries[${i}]`;
    const item = items[i]!;
    const changed: Record<string, unknown> = {};
    if (isAbsent(entry)) {
      itemChanges.push(changed);
      return;
    }
    if (!isAbsent(entry.name)) {
      const name = readText(entry.name, `${at}.name`, LIMITS.nameMaxChars, {
        allowNewlines: true,
        allowTab: true,
      });
      if (name === undefined || !isNotBlank(name))
        throw invalidInput(`${at}.name`, 'must be 1–255 characters');
      item.Name = name;
      changed.name = name;
    }
    if (!isAbsent(entry.quantity)) {
      const units = readScaled(
        entry.quantity,
        `${at}.quantity`,
        QUANTITY_SCALE,
        LIMITS.maxQuantityUnits,
        'a quantity',
      );
      if (units < 0n) throw invalidInput(`${at}.quantity`, 'must not be negative (the sign goes on price)');
      const unitPrice = doc.apiItems?.[i]?.unitPrice;
      const micros =
        unitPrice === undefined ? undefined : toScaledInteger(Number(unitPrice), UNIT_PRICE_SCALE);
      if (micros === undefined)
        throw invalidInput(`${at}.quantity`, 'the unit price of this item is not known');
      const total = lineTotalCents(micros, units);
      if (total > LIMITS.maxAbsAmountCents || total < -LIMITS.maxAbsAmountCents) {
        throw invalidInput(`${at}.quantity`, 'the line total must be between -10000000 and 10000000');
      }
      item.Quantity = formatScaled(units, QUANTITY_SCALE);
      const price = formatScaled(total, AMOUNT_SCALE);
      if (price !== item.Price) totalsChanged = true;
      item.Price = price;
      changed.quantity = item.Quantity;
    }
    if (!isAbsent(entry.specialRegulationChange)) {
      const value = entry.specialRegulationChange.newValue;
      if (isAbsent(value) || value === '') {
        delete item.SpecialRegulation;
        changed.specialRegulationChange = null;
      } else {
        const found = SPECIAL_REGULATIONS.find((s) => s === value);
        if (!found) {
          throw invalidInput(
            `${at}.specialRegulationChange.newValue`,
            `unknown value '${value}'; one of ${SPECIAL_REGULATIONS.join(', ')} or null to remove it`,
          );
        }
        if (Number(item.VatRate) !== 0) {
          throw invalidInput(
            `${at}.specialRegulationChange.newValue`,
            'only items at VAT_0 carry a special regulation (SFS -130)',
          );
        }
        item.SpecialRegulation = found as SpecialRegulation;
        changed.specialRegulationChange = found;
      }
    }
    itemChanges.push(changed);
  });
  changes.documentEntries = itemChanges;
  return totalsChanged;
}
