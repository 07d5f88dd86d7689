import type { Element } from '@xmldom/xmldom';
import type { SfsWarning } from '../../core/ports/tax-authority.js';
import { isSfsDateTime } from '../../core/sfs/message-lexical.js';
import { NS } from './soap-envelope.js';
import { allElements, elementChildren, is } from './xml-dom.js';

/** What an SFS response Body says, before kasa decides the outcome. */
export type SfsResponseBody =
  | {
      kind: 'RegisterReceipt';
      uuid: string;
      requestUuid: string;
      processDate: string;
      id: string;
      warning?: SfsWarning;
    }
  | { kind: 'RegisterLocation'; uuid: string; requestUuid: string; processDate: string; warning?: SfsWarning }
  | { kind: 'fault'; code: number | undefined; text: string }
  | { kind: 'invalid'; reason: string };

/** Production `[VO]-` + 32 hex; the integration environment answers `O-` + 27 hex + `-TEST` (spec §3.4). */
const RECEIPT_ID = /^(?:[VO]-[0-9a-fA-F]{32}|O-[0-9a-fA-F]{27}-TEST)$/;

/**
 * Reads a response Body by namespace and local name (prefixes are the server's choice, ADR 0303).
 * A Fault's `EkasaErrorCode` is matched by local name in any namespace, on the Fault or inside it:
 * the spec's example uses the v1 namespace even for v2 (spec §3.7).
 */
export function readResponseBody(body: Element): SfsResponseBody {
  const [root, ...more] = elementChildren(body);
  if (!root || more.length > 0) return { kind: 'invalid', reason: 'the Body must hold one element' };
  if (root.namespaceURI === NS.soap && root.localName === 'Fault') return readFault(root);
  const operation =
    root.localName === 'RegisterReceiptResponse'
      ? 'RegisterReceipt'
      : root.localName === 'RegisterLocationResponse'
        ? 'RegisterLocation'
        : undefined;
  if (root.namespaceURI !== NS.ekasa || !operation) {
    return { kind: 'invalid', reason: `unexpected response {${root.namespaceURI}}${root.localName}` };
  }
  const child = (name: string) => elementChildren(root).find((e) => is(e, NS.ekasa, name));
  const header = child('Header');
  const uuid = header?.getAttribute('Uuid') ?? '';
  const requestUuid = header?.getAttribute('RequestUuid') ?? '';
  const processDate = header?.getAttribute('ProcessDate') ?? '';
  if (!uuid || !requestUuid || !isSfsDateTime(processDate)) {
    return { kind: 'invalid', reason: 'Header must carry Uuid, RequestUuid and an SFS ProcessDate' };
  }
  const warningElement = child('Warning');
  let warning: SfsWarning | undefined;
  if (warningElement) {
    const code = warningElement.getAttribute('Code') ?? '';
    if (!/^-?[0-9]{1,3}$/.test(code)) return { kind: 'invalid', reason: 'Warning@Code is not a number' };
    warning = { code: Number(code), text: (warningElement.textContent ?? '').trim() };
  }
  const common = { uuid, requestUuid, processDate, ...(warning ? { warning } : {}) };
  if (operation === 'RegisterLocation') return { kind: operation, ...common };
  const id = child('ReceiptData')?.getAttribute('Id') ?? '';
  if (!RECEIPT_ID.test(id)) return { kind: 'invalid', reason: `ReceiptData@Id "${id}" is not a receipt UID` };
  return { kind: operation, ...common, id };
}

function readFault(fault: Element): SfsResponseBody {
  let code: number | undefined;
  for (const element of allElements(fault)) {
    for (let i = 0; i < element.attributes.length && code === undefined; i++) {
      const attr = element.attributes.item(i)!;
      if ((attr.localName ?? attr.name) === 'EkasaErrorCode' && /^-?[0-9]+$/.test(attr.value.trim())) {
        code = Number(attr.value.trim());
      }
    }
  }
  const reason = elementChildren(fault).find((e) => is(e, NS.soap, 'Reason'));
  const text = reason ? elementChildren(reason).find((e) => is(e, NS.soap, 'Text')) : undefined;
  return { kind: 'fault', code, text: (text?.textContent ?? '').trim() };
}
