import { NS } from '../../adapters/tax-authority/soap-envelope.js';
import { escapeAttribute, escapeText } from '../../adapters/tax-authority/xml-dom.js';
import type { SfsWarning } from '../../core/ports/tax-authority.js';
import { EKASA_ERRORS, type EkasaErrorCode, SIM_DUPLICATE_CODE } from '../../core/sfs/ekasa-errors.js';
import { CAREFUL_REASONS } from './careful-checks.js';

/**
 * The simulator's response bodies (ADR 0304). No public sample of an SFS response exists; the
 * element names follow the spec tables (§3.4, §3.6, §3.7): `Header@Uuid/RequestUuid/ProcessDate`,
 * `ReceiptData@Id`, an optional `Warning@Code` with text, and a SOAP 1.2 Fault carrying
 * `EkasaErrorCode` in the v1 namespace as the spec's example does. The envelope is signed like a
 * request (same WS-Security profile).
 */
export interface ResponseHeader {
  uuid: string;
  requestUuid: string;
  processDate: string;
}

const header = (h: ResponseHeader) =>
  `<ekasa:Header ProcessDate="${escapeAttribute(h.processDate)}" RequestUuid="${escapeAttribute(h.requestUuid)}" Uuid="${escapeAttribute(h.uuid)}"/>`;

const warningElement = (w: SfsWarning | undefined) =>
  w ? `<ekasa:Warning Code="${w.code}">${escapeText(w.text)}</ekasa:Warning>` : '';

export function receiptResponseElement(h: ResponseHeader, id: string, warning?: SfsWarning): string {
  return (
    `<ekasa:RegisterReceiptResponse xmlns:ekasa="${NS.ekasa}">` +
    header(h) +
    `<ekasa:ReceiptData Id="${escapeAttribute(id)}"/>` +
    warningElement(warning) +
    '</ekasa:RegisterReceiptResponse>'
  );
}

export function locationResponseElement(h: ResponseHeader, warning?: SfsWarning): string {
  return `<ekasa:RegisterLocationResponse xmlns:ekasa="${NS.ekasa}">${header(h)}${warningElement(warning)}</ekasa:RegisterLocationResponse>`;
}

/** Slovak reason text of a code (kasa's wording); unknown codes get a generic sentence. */
export function reasonText(code: number): string {
  if (code === SIM_DUPLICATE_CODE) return 'Doklad s týmto číslom je už zaevidovaný (simulátor).';
  const careful = (CAREFUL_REASONS as Record<number, string | undefined>)[code];
  if (careful !== undefined) return careful;
  return (
    (EKASA_ERRORS as Record<number, { sk: string } | undefined>)[code as EkasaErrorCode]?.sk ??
    'Chyba spracovania.'
  );
}

/** SOAP 1.2 Fault, Code Sender, Reason in Slovak, the detail in English (integration env only). */
export function faultElement(code: number, reason: string, detail?: string): string {
  return (
    `<soapenv:Fault xmlns:ekasa="${NS.ekasaV1}" ekasa:EkasaErrorCode="${code}">` +
    '<soapenv:Code><soapenv:Value>soapenv:Sender</soapenv:Value></soapenv:Code>' +
    `<soapenv:Reason><soapenv:Text xml:lang="sk-SK">${escapeText(reason)}</soapenv:Text></soapenv:Reason>` +
    (detail ? `<soapenv:Detail><ekasa:Detail>${escapeText(detail)}</ekasa:Detail></soapenv:Detail>` : '') +
    '</soapenv:Fault>'
  );
}
