/**
 * The SFS error codes (`EkasaErrorCode` of a SOAP Fault, SFS spec §2.6 / §3.7) with the meaning
 * the spec gives. The Slovak text is kasa's own short wording, used by the simulator in
 * `env:Reason/env:Text xml:lang="sk-SK"`; clients must key on the number, never on the text.
 */
export const EKASA_ERRORS = {
  [-2]: { sk: 'Nesprávne vstupné hodnoty (nezhoda s XSD).', en: 'bad input values (XSD etc.)' },
  [-8]: { sk: 'Verzia rozhrania už nie je podporovaná.', en: 'interface version no longer supported' },
  [-10]: { sk: 'Chyba v podpise správy.', en: 'error in the message signature' },
  [-12]: { sk: 'Nesprávny formát certifikátu.', en: 'wrong certificate format' },
  [-13]: { sk: 'Certifikát nie je platný.', en: 'certificate not valid' },
  [-100]: { sk: 'Nesprávny PKP.', en: 'wrong PKP' },
  [-101]: { sk: 'DIČ sa nezhoduje s DIČ v certifikáte.', en: 'DIČ differs from the DIČ in the certificate' },
  [-102]: {
    sk: 'Kód pokladnice sa nezhoduje s kódom v certifikáte.',
    en: 'register code differs from the certificate',
  },
  [-103]: {
    sk: 'Dátum vyhotovenia je neskorší ako čas spracovania.',
    en: 'IssueDate later than processing time',
  },
  [-104]: {
    sk: 'Dátum vytvorenia je neskorší ako čas spracovania.',
    en: 'CreateDate later than processing time',
  },
  [-105]: {
    sk: 'Dátum vytvorenia je o viac ako 96 hodín skorší ako čas spracovania.',
    en: 'CreateDate more than 96 h before processing time on the first attempt',
  },
  [-106]: {
    sk: 'Dátum vyhotovenia je skorší ako spustenie systému.',
    en: 'IssueDate earlier than system start',
  },
  [-107]: {
    sk: 'Dátum vytvorenia je skorší ako spustenie systému.',
    en: 'CreateDate earlier than system start',
  },
  [-108]: {
    sk: 'Dátum vytvorenia polohy je neskorší ako čas spracovania.',
    en: 'location CreateDate later than processing time',
  },
  [-109]: {
    sk: 'Dátum vytvorenia polohy je o viac ako 96 hodín skorší ako čas spracovania.',
    en: 'location CreateDate more than 96 h before processing time on the first attempt',
  },
  [-110]: {
    sk: 'Dátum vytvorenia polohy je skorší ako spustenie systému.',
    en: 'location CreateDate earlier than system start',
  },
  [-111]: { sk: 'Nesprávny OKP.', en: 'wrong OKP' },
  [-112]: { sk: 'Úhrada faktúry bez čísla faktúry.', en: 'UF without InvoiceNumber' },
  [-113]: { sk: 'Rozpis DPH nie je povolený pre UF, VK a VY.', en: 'VAT breakdown on UF/VK/VY' },
  [-114]: { sk: 'Položky nie sú povolené pre UF, VK a VY.', en: 'items on UF/VK/VY' },
  [-115]: { sk: 'Číslo faktúry je povolené len pre UF.', en: 'InvoiceNumber on PD/ND/VK/VY' },
  [-116]: { sk: 'Doklad PD alebo ND bez položiek.', en: 'PD/ND without items' },
  [-117]: { sk: 'Položka V alebo O bez referencie na doklad.', en: 'V/O item without ReferenceReceiptId' },
  [-118]: {
    sk: 'Referencia na doklad je povolená len pre položky V a O.',
    en: 'ReferenceReceiptId on K/VO/Z/OZ/VP',
  },
  [-119]: { sk: 'Doklad PD alebo ND bez rozpisu DPH.', en: 'PD/ND without VAT breakdown' },
  [-120]: {
    sk: 'Základ a DPH základnej sadzby musia byť uvedené spolu.',
    en: 'TaxBaseBasic and BasicVatAmount both or neither',
  },
  [-121]: {
    sk: 'Základ a DPH zníženej sadzby musia byť uvedené spolu.',
    en: 'TaxBaseReduced and ReducedVatAmount both or neither',
  },
  [-122]: {
    sk: 'CustomerId a CustomerIdType musia byť uvedené spolu.',
    en: 'CustomerId and CustomerIdType both or neither',
  },
  [-123]: { sk: 'Identifikácia kupujúceho nie je povolená pre ND, VK a VY.', en: 'customer on ND/VK/VY' },
  [-124]: { sk: 'Paragón bez čísla paragónu.', en: 'paragón without ParagonNumber' },
  [-125]: { sk: 'Číslo paragónu bez paragónu.', en: 'ParagonNumber without paragón' },
  [-126]: { sk: 'Paragón nie je povolený pre ND, VK a VY.', en: 'paragón for ND/VK/VY' },
  [-127]: { sk: 'Položka K so zápornou cenou.', en: 'K item with negative price' },
  [-128]: {
    sk: 'Položka VO, V, Z, OZ alebo VP s kladnou cenou.',
    en: 'VO/V/Z/OZ/VP item with positive price',
  },
  [-129]: {
    sk: 'SellerId a SellerIdType musia byť uvedené spolu.',
    en: 'SellerId and SellerIdType both or neither',
  },
  [-130]: {
    sk: 'Osobitná úprava je povolená len so sadzbou 0.',
    en: 'SpecialRegulation with a non-zero rate',
  },
  [-131]: { sk: 'Číslo poukazu je povolené len pre položku VP.', en: 'VoucherNumber on a non-VP item' },
  [-132]: { sk: 'Nesprávne časové pásmo.', en: 'wrong time zone' },
} as const satisfies Record<number, { sk: string; en: string }>;

export type EkasaErrorCode = keyof typeof EKASA_ERRORS;

/**
 * The SFS codes that refuse a message for a reason of time (SFS spec §2.6, the error list):
 * IssueDate or CreateDate later than the processing time (−103, −104), CreateDate more than 96 h
 * before it on the first attempt (−105), IssueDate or CreateDate before the system started (−106,
 * −107), the same three checks of a location's CreateDate (−108, −109, −110), and a date-time
 * whose offset is not Slovak time for that instant (−132). A request whose own attempt is refused
 * with one of them answers 502 INCORRECT_TIME, not 501 (ADR 0008 §17, ADR 0714).
 */
export const TIME_REFUSAL_CODES: ReadonlySet<number> = new Set<EkasaErrorCode>([
  -103, -104, -105, -106, -107, -108, -109, -110, -132,
]);

/** Whether an SFS code refuses a message for a reason of time ({@link TIME_REFUSAL_CODES}). */
export function isTimeRefusal(code: number | undefined): boolean {
  return code !== undefined && TIME_REFUSAL_CODES.has(code);
}

/**
 * Not an SFS code: the kasa simulator's answer to a second, different document under a receipt
 * number it has already registered (ADR 0307). The client maps it to the `duplicate` outcome.
 * The published interface has no duplicate signal.
 */
export const SIM_DUPLICATE_CODE = -900;

/**
 * Not SFS codes either: the kasa simulator's "careful server" refusals −901 … −908, for what a
 * careful server would refuse but the published table has no code for (ADR 0422, docs/sfs.md).
 * A client sees them as an ordinary rejection.
 */
export type SimCarefulCode = -901 | -902 | -903 | -904 | -905 | -906 | -907 | -908;

/** A broken rule: the SFS code, and a detail naming the attribute (English, for logs and Detail). */
export interface SfsViolation {
  code: EkasaErrorCode | typeof SIM_DUPLICATE_CODE | SimCarefulCode;
  detail: string;
}

export function violation(code: EkasaErrorCode, detail: string): SfsViolation {
  return { code, detail };
}
