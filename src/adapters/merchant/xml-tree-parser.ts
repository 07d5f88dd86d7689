import { DOMParser, type Element, type Node } from '@xmldom/xmldom';
import { FiscalError } from '../../core/fiscal-error.js';
import type { XmlNode } from '../../core/merchant/xml-tree.js';
import { XML_LIMITS, xmlShapeBreach } from './xml-limits.js';

const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_SECTION_NODE = 4;

type What = 'identification data' | 'authentication data';
/** The request member each file arrives in (`POST /api/merchant/store`). */
const FIELD: Record<What, string> = {
  'identification data': 'identificationData',
  'authentication data': 'authenticationData',
};

/**
 * Parses one merchant XML file (identification or authentication data) into an {@link XmlNode}
 * tree, with namespaces resolved (any prefix or the default namespace).
 *
 * @throws FiscalError 404 MERCHANT_PARSE_ERROR when the text is not well-formed XML, carries a
 *   DOCTYPE (the SFS files have none; refusing it rules out entity tricks), or is larger, has more
 *   elements or deeper nesting than {@link XML_LIMITS} (checked before the parser runs, ADR 0602).
 */
export function parseXmlTree(xml: string, what: What): XmlNode {
  const text = xml.startsWith('\uFEFF') ? xml.slice(1) : xml;
  if (text.trim() === '') throw parseError(what, 'the XML is empty');
  const maxBytes =
    what === 'identification data' ? XML_LIMITS.identificationBytes : XML_LIMITS.authenticationBytes;
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > maxBytes) {
    throw parseError(what, `the XML is ${bytes} bytes, more than the ${maxBytes} bytes an SFS file can have`);
  }
  const breach = xmlShapeBreach(text);
  if (breach) throw parseError(what, `the XML has ${breach}; an SFS file has a few dozen elements`);
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
  return toNode(root, what);
}

/**
 * The element tree as {@link XmlNode}s, walked with an explicit stack (a recursive walk overflowed
 * the call stack on deep input); the element and depth bounds hold here too.
 */
function toNode(root: Element, what: What): XmlNode {
  const top = shallowNode(root);
  const stack: Array<{ element: Element; node: XmlNode; depth: number }> = [
    { element: root, node: top, depth: 1 },
  ];
  let elements = 1;
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { element, node, depth } = item;
    for (let n: Node | null = element.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === ELEMENT_NODE) {
        if (++elements > XML_LIMITS.elements || depth + 1 > XML_LIMITS.depth) {
          throw parseError(
            what,
            `the XML has more than ${XML_LIMITS.elements} elements or ${XML_LIMITS.depth} levels`,
          );
        }
        const child = shallowNode(n as Element);
        node.children.push(child);
        stack.push({ element: n as Element, node: child, depth: depth + 1 });
      } else if (n.nodeType === TEXT_NODE || n.nodeType === CDATA_SECTION_NODE) {
        node.text += n.nodeValue ?? '';
      }
    }
  }
  return top;
}

/** One element without its children (filled in by {@link toNode}). */
function shallowNode(element: Element): XmlNode {
  const attributes: string[] = [];
  for (let i = 0; i < element.attributes.length; i++) {
    const attr = element.attributes.item(i)!;
    if (attr.namespaceURI === XMLNS_NS || attr.name === 'xmlns' || attr.name.startsWith('xmlns:')) continue;
    if (attr.namespaceURI === XSI_NS) continue;
    attributes.push(attr.name);
  }
  return {
    namespace: element.namespaceURI ?? null,
    localName: element.localName ?? element.nodeName,
    attributes,
    children: [],
    text: '',
  };
}

function parseError(what: What, reason: string): FiscalError {
  const field = FIELD[what];
  return new FiscalError('MERCHANT_PARSE_ERROR', `${what} (${field}): ${reason}`, { field });
}

function firstLine(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return (message.split('\n')[0] ?? '').slice(0, 200);
}
