import type { X509Certificate } from 'node:crypto';
import { formatCents, moneyCents, quantityUnits, rateHundredths } from '../../core/sfs/decimal-text.js';
import type { SfsViolation, SimCarefulCode } from '../../core/sfs/ekasa-errors.js';
import type { SfsLocationRequest, SfsReceiptRequest } from '../../core/sfs/message.js';
import { parseSfsDateTime } from '../../core/time.js';
import { type CarefulMemory, identityText, type MerchantIdentity } from './careful-memory.js';

export type { MerchantIdentity } from './careful-memory.js';

/**
 * What a careful eKasa server would refuse although the published error table has no code for it
 * (ADR 0422). Each check is one function, has its own simulator-only code (−901 … −908, listed in
 * docs/sfs.md) and can be switched off for a test that needs the lenient behaviour. They run after
 * every published rule, just before the document is registered, and only on messages that passed
 * all of those (so the data are lexically valid).
 */
export const CAREFUL_CHECKS = {
  /** −901: a Uuid already used by an accepted message carries a different message. */
  'uuid-reuse': -901,
  /** −902: PD/ND Amount ≠ Σ item Price + a possible 5-cent cash rounding. */
  'amount-sum': -902,
  /** −903: a VO item (returned deposit packaging) at a VAT rate other than 0. */
  'vo-rate': -903,
  /** −904: an item with Quantity 0 and a Price other than 0. */
  'zero-quantity': -904,
  /** −905: an Ico/IcDph pair that is none of the register's identity data (registered or seen). */
  'merchant-identity': -905,
  /** −906: a paragón whose IssueDate (paper) is after its CreateDate (entry). */
  'paragon-dates': -906,
  /** −907: a RequestDate far ahead of the processing time. */
  'request-date': -907,
  /** −908: a PKP whose CreateDate is before the validity of the certificate it verifies with. */
  'pkp-before-certificate': -908,
} as const satisfies Record<string, SimCarefulCode>;

export type CarefulCheck = keyof typeof CAREFUL_CHECKS;
export const CAREFUL_CHECK_NAMES = Object.keys(CAREFUL_CHECKS) as CarefulCheck[];

/** Which checks are on (absent = on) and their limits. */
export interface CarefulOptions {
  /** `false` switches a check off. */
  checks?: Partial<Record<CarefulCheck, boolean>>;
  /**
   * How far RequestDate may lie ahead of the processing time. Default: the tolerance the SFS gives
   * IssueDate and CreateDate (−103/−104, 96 h, spec §2.6; the simulator's `dateRules.futureToleranceMs`).
   */
  requestDateAheadMs?: number;
}

/** Slovak reason texts of the simulator-only codes (kasa's wording, marked as the simulator's). */
export const CAREFUL_REASONS: Record<SimCarefulCode, string> = {
  [-901]: 'Uuid správy už bol použitý pre inú správu (simulátor).',
  [-902]: 'Suma dokladu sa nezhoduje so súčtom položiek a zaokrúhlením (simulátor).',
  [-903]: 'Vrátený obal (VO) musí mať sadzbu DPH 0 (simulátor).',
  [-904]: 'Položka s nulovým množstvom má nenulovú cenu (simulátor).',
  [-905]: 'IČO alebo IČ DPH nepatrí podnikateľovi (simulátor).',
  [-906]: 'Dátum vyhotovenia paragónu je neskorší ako dátum vytvorenia (simulátor).',
  [-907]: 'Dátum odoslania správy je príliš ďaleko v budúcnosti (simulátor).',
  [-908]: 'PKP je datované pred platnosťou certifikátu (simulátor).',
};

export interface CarefulContext {
  options: CarefulOptions;
  memory: CarefulMemory;
  processTime: Date;
  /** The SFS tolerance for dates ahead of the processing time (−103/−104): −907's default limit. */
  futureToleranceMs: number;
  /**
   * Identity data issued outside the messages (the embedded simulator: every identity record in
   * kasa's journal, so documents resent later with the identity of their time pass).
   */
  issuedIdentities?: () => readonly MerchantIdentity[];
  /** Certificates (DER) issued to a register outside the messages (the embedded simulator: kasa's journal). */
  issuedCertificates?: (cashRegisterCode: string) => readonly Buffer[];
}

export type Message =
  | { operation: 'RegisterReceipt'; request: SfsReceiptRequest }
  | { operation: 'RegisterLocation'; request: SfsLocationRequest };

// A request read from a message is never changed afterwards: its fingerprint is made once, for the
// check and for remembering it after acceptance (capability 13).
const fingerprints = new WeakMap<object, string>();

/** The message's identity for the Uuid check: everything but the per-attempt Header. */
export function messageFingerprint(message: Message): string {
  const known = fingerprints.get(message.request);
  if (known !== undefined) return known;
  const fingerprint =
    message.operation === 'RegisterReceipt'
      ? JSON.stringify(['receipt', message.request.data, message.request.pkp])
      : JSON.stringify(['location', message.request.data]);
  fingerprints.set(message.request, fingerprint);
  return fingerprint;
}

const on = (ctx: CarefulContext, check: CarefulCheck) => ctx.options.checks?.[check] !== false;
const refuse = (check: CarefulCheck, detail: string): SfsViolation => ({
  code: CAREFUL_CHECKS[check],
  detail: `${detail} (simulator check '${check}')`,
});

/** The careful checks of a receipt, in the order of the table above; the first broken one wins. */
export function checkReceiptCarefully(
  request: SfsReceiptRequest,
  ctx: CarefulContext,
  /** The certificate the PKP verified with, and (read only when needed) the other known ones that verify it. */
  pkp: { verifiedBy: X509Certificate; others: () => readonly X509Certificate[] },
): SfsViolation | undefined {
  const message: Message = { operation: 'RegisterReceipt', request };
  const steps: Array<[CarefulCheck, () => SfsViolation | undefined]> = [
    ['uuid-reuse', () => uuidReuse(message, ctx)],
    ['amount-sum', () => amountSum(request)],
    ['vo-rate', () => voRate(request)],
    ['zero-quantity', () => zeroQuantity(request)],
    ['merchant-identity', () => merchantIdentity(request, ctx)],
    ['paragon-dates', () => paragonDates(request)],
    ['request-date', () => requestDate(request.header.RequestDate, ctx)],
    ['pkp-before-certificate', () => pkpBeforeCertificate(request, pkp)],
  ];
  for (const [check, run] of steps) {
    if (!on(ctx, check)) continue;
    const broken = run();
    if (broken) return broken;
  }
  return undefined;
}

/** The careful checks that apply to a location message (Uuid, RequestDate). */
export function checkLocationCarefully(
  request: SfsLocationRequest,
  ctx: CarefulContext,
): SfsViolation | undefined {
  if (on(ctx, 'uuid-reuse')) {
    const broken = uuidReuse({ operation: 'RegisterLocation', request }, ctx);
    if (broken) return broken;
  }
  return on(ctx, 'request-date') ? requestDate(request.header.RequestDate, ctx) : undefined;
}

/** After a message was accepted (registered or repeated): what the checks remember of it. */
export function rememberAccepted(message: Message, ctx: CarefulContext): void {
  ctx.memory.rememberUuid(message.request.header.Uuid, messageFingerprint(message));
  if (message.operation === 'RegisterReceipt') {
    const { CashRegisterCode, Ico, IcDph } = message.request.data;
    ctx.memory.rememberIdentity({ cashRegisterCode: CashRegisterCode, ico: Ico, icDph: IcDph });
  }
}

/** Spec §3.3.12.1: the Uuid is new for every attempt; the same one on another message is a reuse. */
function uuidReuse(message: Message, ctx: CarefulContext): SfsViolation | undefined {
  if (!ctx.memory.heldByOther(message.request.header.Uuid, messageFingerprint(message))) return undefined;
  return refuse('uuid-reuse', `Header@Uuid ${message.request.header.Uuid} was used for another message`);
}

/**
 * Amount of a PD/ND = Σ Price, or that plus a cash rounding (ADR 0402/0420): only the cash part is
 * rounded, which the server cannot see, so any rounding a cash part can produce is accepted —
 * up to 2 cents either way, or 3–4 cents away from zero when the cash part is 1 or 2 cents.
 */
function amountSum(request: SfsReceiptRequest): SfsViolation | undefined {
  const { ReceiptType, Items, Amount } = request.data;
  if ((ReceiptType !== 'PD' && ReceiptType !== 'ND') || Items === undefined) return undefined;
  const sum = Items.reduce((total, item) => total + moneyCents(item.Price)!, 0);
  const diff = moneyCents(Amount)! - sum;
  const abs = Math.abs(diff);
  const possible =
    diff === 0 || (sum !== 0 && (abs <= 2 || (abs <= 4 && Math.sign(diff) === Math.sign(sum))));
  if (possible) return undefined;
  return refuse(
    'amount-sum',
    `Amount ${Amount} is not the item sum ${formatCents(sum)} plus a cash rounding`,
  );
}

/** Returnable packaging is outside VAT (reference §4.2): a VO item carries VatRate 0. */
function voRate(request: SfsReceiptRequest): SfsViolation | undefined {
  const at = (request.data.Items ?? []).findIndex(
    (item) => item.ItemType === 'VO' && rateHundredths(item.VatRate) !== 0,
  );
  if (at < 0) return undefined;
  return refuse('vo-rate', `Item[${at + 1}]: a VO item at VatRate ${request.data.Items![at]!.VatRate}`);
}

/** Price is the line total = unit price × Quantity (spec §3.3.12.27): nothing times 0 is 0. */
function zeroQuantity(request: SfsReceiptRequest): SfsViolation | undefined {
  const at = (request.data.Items ?? []).findIndex(
    (item) => quantityUnits(item.Quantity) === 0 && moneyCents(item.Price) !== 0,
  );
  if (at < 0) return undefined;
  return refuse('zero-quantity', `Item[${at + 1}]: Quantity 0 with Price ${request.data.Items![at]!.Price}`);
}

/**
 * Ico and IcDph come from the register's identification data, which the SFS issued. The simulator
 * has no taxpayer registry; a register's identities are those registered with it (control API,
 * or for the embedded simulator the merchant kasa holds) and those on its receipts it accepted —
 * the first receipt of an unknown register is accepted and teaches it. A receipt whose pair of
 * Ico and IcDph is none of them names another merchant's data.
 */
function merchantIdentity(request: SfsReceiptRequest, ctx: CarefulContext): SfsViolation | undefined {
  const { CashRegisterCode, Ico, IcDph } = request.data;
  const text = identityText(Ico, IcDph);
  const learnt = ctx.memory.identitiesOf(CashRegisterCode);
  // The pair learnt already passes whatever else is issued: the issued list (for the embedded
  // simulator a read of kasa's journal index) is read only for a pair not learnt yet, so it is
  // never stale — a new identity stored mid-run is seen on its first receipt (capability 13).
  if (learnt.has(text)) return undefined;
  const known = new Set(learnt);
  for (const issued of ctx.issuedIdentities?.() ?? []) {
    if (issued.cashRegisterCode === CashRegisterCode) known.add(identityText(issued.ico, issued.icDph));
  }
  if (known.size === 0 || known.has(text)) return undefined;
  const holds = [...known]
    .map((text) => {
      const [ico, icDph] = JSON.parse(text) as [string | null, string | null];
      return `Ico ${ico ?? '(none)'}/IcDph ${icDph ?? '(none)'}`;
    })
    .join(', ');
  return refuse(
    'merchant-identity',
    `Ico ${Ico ?? '(none)'}/IcDph ${IcDph ?? '(none)'} is not this register's identity data (${holds})`,
  );
}

/** Spec §3.3.12 (reference §1.4): a paragón is entered after it was written, CreateDate ≥ IssueDate. */
function paragonDates(request: SfsReceiptRequest): SfsViolation | undefined {
  const { Paragon, IssueDate, CreateDate } = request.data;
  if (Paragon !== 'true') return undefined;
  if (parseSfsDateTime(IssueDate)!.getTime() <= parseSfsDateTime(CreateDate)!.getTime()) return undefined;
  return refuse('paragon-dates', `paragón IssueDate ${IssueDate} is after its CreateDate ${CreateDate}`);
}

/**
 * RequestDate is the time of this attempt (spec §3.3.12.2): it cannot lie far ahead of now. By
 * default as far as the SFS lets IssueDate/CreateDate lie ahead (96 h, −103/−104): a register's
 * clock the SFS accepts for the document dates is accepted for the attempt date too.
 */
function requestDate(text: string, ctx: CarefulContext): SfsViolation | undefined {
  const ahead = parseSfsDateTime(text)!.getTime() - ctx.processTime.getTime();
  const limit = ctx.options.requestDateAheadMs ?? ctx.futureToleranceMs;
  if (ahead <= limit) return undefined;
  return refuse('request-date', `Header@RequestDate ${text} is ${Math.round(ahead / 60_000)} min ahead`);
}

/**
 * Spec §2.1: the PKP is made at CreateDate with a certificate valid then, not with a later one.
 * `certificates` are every certificate of this register the simulator knows (the signing one, those
 * on accepted messages, those issued to it) that verify this PKP: one of them valid from CreateDate
 * on is enough — a renewal with the same key has a later validFrom, yet the earlier certificate
 * made the PKP.
 */
function pkpBeforeCertificate(
  request: SfsReceiptRequest,
  pkp: { verifiedBy: X509Certificate; others: () => readonly X509Certificate[] },
): SfsViolation | undefined {
  const created = parseSfsDateTime(request.data.CreateDate)!.getTime();
  const validFromCreate = (certificate: X509Certificate) => created >= Date.parse(certificate.validFrom);
  // The usual case, the certificate it verified with, first: the others (for the embedded
  // simulator a read of kasa's journal index) are read only when that one was not valid yet.
  if (validFromCreate(pkp.verifiedBy)) return undefined;
  const certificates = [pkp.verifiedBy, ...pkp.others()];
  if (certificates.some(validFromCreate)) return undefined;
  const from = certificates.map((certificate) => certificate.validFrom).join(', ');
  return refuse(
    'pkp-before-certificate',
    `CreateDate ${request.data.CreateDate} is before the validity of every certificate the PKP verifies with (${from})`,
  );
}
