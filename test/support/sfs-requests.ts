import { randomUUID } from 'node:crypto';
import type { MessageSigner } from '../../src/core/ports/tax-authority.js';
import type {
  ReceiptType,
  SfsItem,
  SfsLocation,
  SfsLocationRequest,
  SfsReceiptData,
  SfsReceiptRequest,
} from '../../src/core/sfs/message.js';
import { okpFromPkp } from '../../src/core/sfs/okp.js';
import { computePkp } from '../../src/core/sfs/pkp.js';
import { computeVatRecap, vatRegimeAt } from '../../src/core/sfs/vat-recap.js';
import { formatSfsDateTime } from '../../src/core/time.js';
import { TEST_DIC, TEST_REGISTER } from './merchant-keys.js';

export const TEST_SW_ID = '8639BA17A8EEEF50FF559B90D36AE13B5E93DCDE';

export const item = (
  Name: string,
  Price: string,
  VatRate: string,
  extra: Partial<SfsItem> = {},
): SfsItem => ({
  ItemType: 'K',
  Name,
  Price,
  Quantity: '1.0000',
  VatRate,
  ...extra,
});

export interface ReceiptOptions {
  type?: ReceiptType;
  at?: Date;
  number?: string;
  sendingCount?: number;
  /** Replaces or removes (value undefined) ReceiptData attributes after the defaults. */
  data?: Partial<Record<keyof SfsReceiptData, unknown>>;
  /** Leave the computed VAT recap out. */
  noRecap?: boolean;
}

/**
 * A correct RegisterReceiptRequest of the given type, created `at` (default: now), with its VAT
 * recap computed from its items and a real PKP/OKP from `signer`. `data` overrides are applied
 * last but before the PKP is computed, so a rule test changes one thing and keeps the codes consistent.
 */
export function receiptRequest(signer: MessageSigner, options: ReceiptOptions = {}): SfsReceiptRequest {
  const type = options.type ?? 'PD';
  const at = options.at ?? new Date();
  const date = formatSfsDateTime(at);
  const withItems = type === 'PD' || type === 'ND';
  const data: SfsReceiptData = {
    ReceiptType: type,
    Dic: TEST_DIC,
    IcDph: `SK${TEST_DIC}`,
    CashRegisterCode: TEST_REGISTER,
    IssueDate: date,
    CreateDate: date,
    ReceiptNumber: options.number ?? '1',
    Paragon: 'false',
    Amount: withItems ? '6.07' : type === 'UF' ? '56.75' : '100.00',
    ...(type === 'UF' ? { InvoiceNumber: 'FA2026/001' } : {}),
    ...(withItems ? { Items: [item('Káva', '3.69', '23.00'), item('Džús', '2.38', '19.00')] } : {}),
  };
  const items = (options.data && 'Items' in options.data ? options.data.Items : data.Items) as
    | SfsItem[]
    | undefined;
  const recap =
    items && !options.noRecap
      ? computeVatRecap(items, { regime: vatRegimeAt(at), vatPayer: data.IcDph !== undefined })
      : {};
  // Overrides come last, so a test can remove (undefined) or spoil any attribute, recap included.
  const merged = { ...data, ...recap, ...(options.data ?? {}) } as Record<string, unknown>;
  for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
  const final = merged as unknown as SfsReceiptData;
  const pkp = computePkp(final, signer);
  return {
    header: {
      Uuid: randomUUID(),
      RequestDate: date,
      SwId: TEST_SW_ID,
      SendingCount: String(options.sendingCount ?? 1),
      Exception: 'false',
    },
    data: final,
    pkp,
    okp: okpFromPkp(pkp),
  };
}

export function locationRequest(
  location: SfsLocation,
  options: { at?: Date; sendingCount?: number; data?: Partial<SfsLocationRequest['data']> } = {},
): SfsLocationRequest {
  const date = formatSfsDateTime(options.at ?? new Date());
  return {
    header: {
      Uuid: randomUUID(),
      RequestDate: date,
      SwId: TEST_SW_ID,
      SendingCount: String(options.sendingCount ?? 1),
    },
    data: {
      Dic: TEST_DIC,
      CashRegisterCode: TEST_REGISTER,
      CreateDate: date,
      location,
      ...(options.data ?? {}),
    },
  };
}

export const LOCATIONS = {
  gps: { kind: 'gps', AxisX: '17.165377', AxisY: '48.148962' },
  address: {
    kind: 'address',
    Municipality: 'Bratislava',
    StreetName: 'Mierová',
    BuildingNumber: '23',
    PropertyRegistrationNumber: '202',
    PostalCode: '82105',
  },
  other: { kind: 'other', text: 'Taxi ABC SPZ=BA 123 AA' },
} as const satisfies Record<string, SfsLocation>;
