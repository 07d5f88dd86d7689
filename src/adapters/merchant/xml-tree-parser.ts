import { DOMParser, type Element, type Node } from '@xmldom/xmldom';
import { FiscalError } from '../../core/fiscal-error.js';
import type { XmlNode } from '../../core/merchant/xml-tree.js';

const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_SECTION_NODE = 4;

/**
 * Parses one merchant XML file (identification or authentication data) into an {@link XmlNode}
 * tree, with namespaces resolved (any prefix or the default namespace).
 *
 * @throws FiscalError 404 MERCHANT_PARSE_ERROR when the text is not well-formed XML or carries a
 *   DOCTYPE (the SFS files have none; refusing it rules out entity tricks).
 */
export function parseXmlTree(xml: string, what: 'identification data' | 'authentication data'): XmlNode {
  const text = xml.startsWith('\uFEFF') ? xml.slice(1) : xml;
  if (text.trim() === '') throw parseError(what, 'the XML is empty');
  let root: Element | null;
  try {
    const parser = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') throw new Error(message);
      },
    });
    const doc = parser.parseFromString(text, 'text/xml');
    if (doc.doctype) throw new Error('a DOCTYPE is not allowed');
    root = doc.documentElement;
  } catch (e) {
    throw parseError(what, `not well-formed XML (${firstLine(e)})`);
  }
  if (!root) throw parseError(what, 'no root element');
  return toNode(root);
}

function toNode(element: Element): XmlNode {
  const attributes: string[] = [];
  for (let i = 0; i < element.attributes.length; i++) {
    const attr = element.attributes.item(i)!;
    if (attr.namespaceURI === XMLNS_NS || attr.name === 'xmlns' || attr.name.startsWith('xmlns:')) continue;
    if (attr.namespaceURI === XSI_NS) continue;
    attributes.push(attr.name);
  }
  const children: XmlNode[] = [];
  let text = '';
  for (let n: Node | null = element.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === ELEMENT_NODE) children.push(toNode(n as Element));
    else if (n.nodeType === TEXT_NODE || n.nodeType === CDATA_SECTION_NODE) text += n.nodeValue ?? '';
  }
  return {
    namespace: element.namespaceURI ?? null,
    localName: element.localName ?? element.nodeName,
    attributes,
    children,
    text,
  };
}

function parseError(what: string, reason: string): FiscalError {
  return new FiscalError('MERCHANT_PARSE_ERROR', `${what}: ${reason}`);
}

function firstLine(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return (message.split('\n')[0] ?? '').slice(0, 200);
}
