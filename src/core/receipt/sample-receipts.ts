import type { ReceiptView } from './receipt-model.js';

/**
 * Sample receipts, one per document type and state. They are the unit-test fixtures of the layout
 * and the renderers, and serve as the "sample receipt" a point of sale must display (§ 8(5) of
 * Act 289/2008). Every value is made up but consistent: VAT per rate is computed with the SFS rule
 * (VAT = gross × r/(100+r), half-up; base = gross − VAT).
 */
export type SampleReceiptName =
  | 'pdOnline'
  | 'pdOffline'
  | 'uf'
  | 'nd'
  | 'vk'
  | 'vy'
  | 'vkSent2025'
  | 'paragon'
  | 'copy'
  | 'demo'
  | 'nonPayer'
  | 'refund';

const OKP = 'a70a8147-6abe354e-3bae2c67-87bddcfc-f34b6728';
const UID = 'O-7DBCDA8A56EE426DBCDA8A56EE426D1A';
// 256 signature bytes in Base64 are 344 characters; the value is a stand-in, not a signature.
const PKP = `${'Qk9HVVMtUEtQLWtvcmUtZm9yLXRlc3RzLW9ubHk'.repeat(9).slice(0, 342)}==`;
const CODE = '88812345678900001';

/** PD, online, VAT payer: three rates, returnable packaging sold at 0 %, a voucher, two payments. */
const pdOnline: ReceiptView = {
  type: 'PD',
  merchant: {
    name: 'Potraviny Horná s.r.o.',
    ico: '76543210',
    dic: '1234567890',
    icDph: 'SK1234567890',
    seatAddress: 'Horná 560/7, 98045 Štrkovec',
  },
  orgUnit: { name: 'Predajňa Pod lipou', address: 'Námestie SNP 14, 81101 Bratislava' },
  portable: false,
  cashRegisterCode: CODE,
  sequenceNumber: 23,
  documentNumber: '202601/23',
  issueDate: '15.01.2026 10:20:30',
  items: [
    { name: 'Chlieb tmavý', kind: 'SALE', quantity: '1', unitPrice: '2.49', lineTotalCents: 249, vatRate: 5 },
    {
      name: 'Káva zrnková 500 g',
      kind: 'SALE',
      quantity: '2',
      unit: 'ks',
      unitPrice: '8.90',
      lineTotalCents: 1780,
      vatRate: 23,
    },
    {
      name: 'Denník Nový čas',
      kind: 'SALE',
      quantity: '1',
      unitPrice: '1.20',
      lineTotalCents: 120,
      vatRate: 19,
    },
    {
      name: 'Pivo Zlatý bažant 0,5 l',
      kind: 'SALE',
      quantity: '4',
      unitPrice: '1.19',
      lineTotalCents: 476,
      vatRate: 23,
    },
    {
      name: 'Vratná fľaša',
      kind: 'PACKING',
      quantity: '4',
      unitPrice: '0.15',
      lineTotalCents: 60,
      vatRate: 0,
    },
    {
      name: 'Darčekový poukaz',
      kind: 'VOUCHER',
      quantity: '1',
      unitPrice: '-5.00',
      lineTotalCents: -500,
      vatRate: 23,
      voucherNumber: 'PK-2026-0042',
    },
  ],
  roundingCents: 0,
  totalCents: 2185,
  payments: [
    { name: 'Karta', amountCents: 1000 },
    { name: 'Hotovosť', amountCents: 1185 },
  ],
  vatRows: [
    // 23 %: 17.56 → VAT 3.2836 → 3.28; 19 %: 1.20 → 0.1916 → 0.19; 5 %: 2.49 → 0.1186 → 0.12
    { rate: 23, baseCents: 1428, vatCents: 328, totalCents: 1756 },
    { rate: 19, baseCents: 101, vatCents: 19, totalCents: 120 },
    { rate: 5, baseCents: 237, vatCents: 12, totalCents: 249 },
  ],
  exemptRows: [{ totalCents: 60 }],
  uid: UID,
  pkp: PKP,
  okp: OKP,
  qrText: UID,
  header: 'Ďakujeme, že nakupujete u nás',
  footer: 'Reklamácie do 14 dní s dokladom',
  offline: false,
  copy: false,
  demo: false,
};

/** PD offline: a sale with a refund of an earlier receipt, cash rounding, PKP + offline QR. */
const { uid: _uid, ...pdOnlineWithoutUid } = pdOnline;
const pdOffline: ReceiptView = {
  ...pdOnlineWithoutUid,
  sequenceNumber: 24,
  documentNumber: '202601/24',
  issueDate: '15.01.2026 10:31:07',
  items: [
    { name: 'Jogurt biely', kind: 'SALE', quantity: '3', unitPrice: '0.59', lineTotalCents: 177, vatRate: 5 },
    {
      name: 'Káva zrnková 500 g',
      kind: 'REFUND',
      quantity: '1',
      unitPrice: '-8.90',
      lineTotalCents: -890,
      vatRate: 23,
      referenceDocumentId: UID,
    },
    {
      name: 'Čokoláda horká',
      kind: 'SALE',
      quantity: '12',
      unitPrice: '1.09',
      lineTotalCents: 1308,
      vatRate: 23,
    },
  ],
  // 1.77 − 8.90 + 13.08 = 5.95: already a multiple of 5 cents, so no cash rounding.
  roundingCents: 0,
  totalCents: 595,
  payments: [{ name: 'Hotovosť', amountCents: 595 }],
  vatRows: [
    // 23 %: 4.18 → VAT 0.7816 → 0.78; 5 %: 1.77 → 0.0843 → 0.08
    { rate: 23, baseCents: 340, vatCents: 78, totalCents: 418 },
    { rate: 5, baseCents: 169, vatCents: 8, totalCents: 177 },
  ],
  exemptRows: [],
  qrText: `${OKP}:${CODE}:260115103107:24:5.95`,
  offline: true,
};

/** UF online: an invoice paid at the register, a customer IČO; no items, no VAT table. */
const { header: _header, footer: _footer, ...pdOnlinePlain } = pdOnline;
const uf: ReceiptView = {
  ...pdOnlinePlain,
  type: 'UF',
  sequenceNumber: 25,
  documentNumber: '202601/25',
  invoiceNumber: 'FA2026/0117',
  customer: { id: '11223344', type: 'ICO' },
  items: [],
  totalCents: 5675,
  payments: [{ name: 'Hotovosť', amountCents: 5675 }],
  vatRows: [],
  exemptRows: [],
};

/** ND: a training receipt, online, items and VAT table, marked NEPLATNÝ DOKLAD. */
const nd: ReceiptView = {
  ...pdOnline,
  type: 'ND',
  sequenceNumber: 26,
  documentNumber: '202601/26',
  items: [
    {
      name: 'Školenie obsluhy',
      kind: 'SALE',
      quantity: '1',
      unitPrice: '12.30',
      lineTotalCents: 1230,
      vatRate: 23,
    },
  ],
  totalCents: 1230,
  payments: [{ name: 'Hotovosť', amountCents: 1230 }],
  vatRows: [{ rate: 23, baseCents: 1000, vatCents: 230, totalCents: 1230 }],
  exemptRows: [],
};

const cashBase: ReceiptView = {
  ...pdOnline,
  items: [],
  payments: [],
  vatRows: [],
  exemptRows: [],
  roundingCents: 0,
};

/** VK in 2026: a cash deposit the law does not let us send (Act 384/2025): no UID, no offline heading. */
const { uid: _cashUid, ...cashWithoutUid } = cashBase;
const vk: ReceiptView = {
  ...cashWithoutUid,
  type: 'VK',
  sequenceNumber: 1,
  documentNumber: '202601/1',
  totalCents: 10000,
  notSent: true,
};

/** VY in 2026 (the API amount is negative; printed as the amount withdrawn), not sent either. */
const vy: ReceiptView = {
  ...cashWithoutUid,
  type: 'VY',
  sequenceNumber: 2,
  documentNumber: '202601/2',
  totalCents: -5000,
  notSent: true,
};

/** VK created in 2025: sent and registered online, with its UID. */
const vkSent2025: ReceiptView = {
  ...cashBase,
  type: 'VK',
  sequenceNumber: 41,
  documentNumber: '202512/41',
  issueDate: '15.12.2025 08:02:11',
  totalCents: 10000,
};

/** Paragón entered afterwards: issue date of the paper paragón, create date, paragón number, rounding. */
const paragon: ReceiptView = {
  ...nd,
  type: 'PD',
  sequenceNumber: 27,
  documentNumber: '202601/27',
  issueDate: '14.01.2026 16:45:00',
  paragon: { number: 118, createDate: '15.01.2026 11:02:10' },
  items: [
    { name: 'Obed menu', kind: 'SALE', quantity: '1', unitPrice: '6.92', lineTotalCents: 692, vatRate: 19 },
  ],
  // 6.92 rounded to 5 cents for cash: 6.90, rounding −0.02 printed, not sent.
  roundingCents: -2,
  totalCents: 690,
  payments: [{ name: 'Hotovosť', amountCents: 690 }],
  vatRows: [{ rate: 19, baseCents: 582, vatCents: 110, totalCents: 692 }],
};

/** A copy of the online PD (POST /api/document/get with printer). */
const copy: ReceiptView = { ...pdOnline, copy: true };

/** A receipt of a demo merchant. */
const demo: ReceiptView = { ...nd, type: 'PD', demo: true };

/** A merchant who is not a VAT payer: no IČ DPH, no VAT table, no per-item rate. */
const nonPayer: ReceiptView = {
  ...pdOnline,
  merchant: { name: 'Jana Nováková - Kvety', dic: '1098765432', seatAddress: 'Hlavná 1, 04001 Košice' },
  orgUnit: { name: 'Stánok' },
  portable: true,
  items: [
    {
      name: 'Kytica tulipánov',
      kind: 'SALE',
      quantity: '1',
      unitPrice: '9.50',
      lineTotalCents: 950,
      vatRate: 0,
    },
  ],
  totalCents: 950,
  payments: [{ name: 'Hotovosť', amountCents: 950 }],
  vatRows: [],
  exemptRows: [{ totalCents: 950 }],
};

/** A refund: a returned item of an earlier receipt, the customer paid back 2.50 in cash. */
const refund: ReceiptView = {
  ...pdOnlinePlain,
  sequenceNumber: 28,
  documentNumber: '202601/28',
  issueDate: '15.01.2026 12:05:44',
  items: [
    {
      name: 'Denník Nový čas',
      kind: 'REFUND',
      quantity: '1',
      unitPrice: '-2.50',
      lineTotalCents: -250,
      vatRate: 23,
      referenceDocumentId: UID,
    },
  ],
  roundingCents: 0,
  totalCents: -250,
  payments: [{ name: 'Hotovosť', amountCents: 250 }],
  // 23 %: −2.50 → VAT −0.4675 → −0.47
  vatRows: [{ rate: 23, baseCents: -203, vatCents: -47, totalCents: -250 }],
  exemptRows: [],
};

export const SAMPLE_RECEIPTS: Readonly<Record<SampleReceiptName, ReceiptView>> = {
  pdOnline,
  pdOffline,
  uf,
  nd,
  vk,
  vy,
  vkSent2025,
  paragon,
  copy,
  demo,
  nonPayer,
  refund,
};
