import type {
  ReceiptCustomerIdType,
  ReceiptDocumentType,
  ReceiptItemKind,
  ReceiptSpecialRegulation,
} from './receipt-model.js';

/**
 * Every fixed Slovak text a receipt prints, in one place. Which of them are SFS or legal rules and
 * which are vendor practice is recorded in docs/adr/0500-receipt-layout-and-wording.md. All of
 * them are in CP852 (the printers' Central European code page): no `€`, no typographic dashes.
 */
export const RECEIPT_WORDING = {
  /**
   * Document-type headings (ND, VK, VY words as certified registers print them: Datapac OEC's
   * print-template rules, GitHub `datapacsro/oec`, and the Kasa Fik manual, manual.kasafik.cz;
   * PD/UF vendor practice; ADR 0500).
   */
  heading: {
    PD: 'POKLADNIČNÝ DOKLAD',
    UF: 'ÚHRADA FAKTÚRY',
    ND: 'NEPLATNÝ DOKLAD',
    VK: 'VKLAD',
    VY: 'VÝBER',
  } satisfies Record<ReceiptDocumentType, string>,
  /** Vendor practice (ADR 0500); the FS calls it "off-line pokladničný doklad" (manual.kasafik.cz). */
  offline: 'OFF-LINE DOKLAD',
  /** VK/VY from 2026 (Act 384/2025): stored and printed, never sent (our wording, ADR 0515). */
  notSent: 'Neodosiela sa do e-kasa (zákon 384/2025 Z. z.)',
  copy: 'KÓPIA',
  demo: '*** DEMO - NEPLATNÝ DOKLAD ***',
  ico: 'IČO:',
  dic: 'DIČ:',
  icDph: 'IČ DPH:',
  orgUnit: 'Prevádzka:',
  portable: 'Prenosná pokladňa',
  cashRegisterCode: 'Kód pokladne:',
  issueDate: 'Dátum vyhot.:',
  paragonCreateDate: 'Dátum zaevid.:',
  paragonNumber: 'Číslo paragónu:',
  sequenceNumber: 'Poradové číslo dokladu:',
  documentNumber: 'Číslo dokladu:',
  invoiceNumber: 'Číslo faktúry:',
  customer: {
    ICO: 'IČO odberateľa:',
    DIC: 'DIČ odberateľa:',
    IC_DPH: 'IČ DPH odberateľa:',
    INE: 'ID odberateľa:',
  } satisfies Record<ReceiptCustomerIdType, string>,
  itemKind: {
    SALE: '',
    PACKING: 'Vratný obal',
    PACKING_REFUND: 'Výkup vratného obalu',
    VOUCHER: 'Uplatnenie poukazu',
    REFUND: 'Vrátená položka',
    UPDATE: 'Opravná položka',
    DISCOUNT: 'Zľava',
    DEPOSIT: 'Odpočítaná záloha',
  } satisfies Record<ReceiptItemKind, string>,
  voucherNumber: 'č.',
  reference: 'k dokladu',
  seller: 'V mene:',
  rounding: 'Zaokrúhlenie:',
  total: 'SUMA',
  /** Vendor practice (research §6): the QR payment id under the QR tender; ADR 0907. */
  qrPaymentId: 'ID QR platby:',
  /** A refund (SUMA below zero): the amount paid back to the customer, and how (our wording). */
  paidBack: 'Vrátené',
  vatTable: ['Sadzba', 'Základ', 'DPH', 'Spolu'] as const,
  vatTableTotal: 'Spolu',
  /** Exempt amounts outside the VAT table (S6/S7 Datapac, certified Oct 2024; keys in ADR 0009). */
  exempt: 'Oslobodené od DPH',
  /** SpecialRegulation wording, after the names the VAT act gives these schemes (our wording). */
  specialRegulation: {
    PDP: 'Prenesenie daňovej povinnosti',
    OOD: 'Oslobodené od dane',
    CK: 'Úprava zdaňovania prirážky - cestovné kancelárie',
    PT: 'Úprava zdaňovania prirážky - použitý tovar',
    UD: 'Úprava zdaňovania prirážky - umelecké diela',
    ZPS: 'Úprava zdaňovania prirážky - zberateľské predmety a starožitnosti',
  } satisfies Record<ReceiptSpecialRegulation, string>,
  uid: 'UID:',
  pkp: 'PKP:',
  okp: 'OKP:',
  /** Certified layout model, line 14 (S7 Printout.txt). */
  verifyQr: 'OVERTE DOKLAD POMOCOU QR KÓDU',
} as const;
