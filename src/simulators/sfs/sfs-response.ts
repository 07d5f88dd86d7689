import { BodyTemplate, type FilledBody, SAFE_VALUE } from '../../adapters/tax-authority/body-template.js';
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

// The answers without a warning, as templates: signed without parsing them again (ADR 1106).
const RECEIPT_RESPONSE = BodyTemplate.of(4, (hole) =>
  receiptResponseElement({ processDate: hole(0), requestUuid: hole(1), uuid: hole(2) }, hole(3)),
);
const LOCATION_RESPONSE = BodyTemplate.of(3, (hole) =>
  locationResponseElement({ processDate: hole(0), requestUuid: hole(1), uuid: hole(2) }),
);

/**
 * The receipt answer for `signEnvelope`: from its template when every value is one the template
 * takes (always, for a request that passed the schema), else the same text built in full.
 */
export function receiptResponseBody(
  h: ResponseHeader,
  id: string,
  warning?: SfsWarning,
): string | FilledBody {
  const values = [h.processDate, h.requestUuid, h.uuid, id];
  return warning === undefined && values.every((value) => SAFE_VALUE.test(value))
    ? RECEIPT_RESPONSE.with(values)
    : receiptResponseElement(h, id, warning);
}

/** The location answer for `signEnvelope`, as {@link receiptResponseBody}. */
export function locationResponseBody(h: ResponseHeader, warning?: SfsWarning): string | FilledBody {
  const values = [h.processDate, h.requestUuid, h.uuid];
  return warning === undefined && values.every((value) => SAFE_VALUE.test(value))
    ? LOCATION_RESPONSE.with(values)
    : locationResponseElement(h, warning);
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
