import { DOMParser, type Document, type Element } from '@xmldom/xmldom';
import { installXmldomGrammarCache } from './xmldom-grammar-cache.js';

// The parser's grammar expressions built once, not per end tag (capability 13: see the file).
installXmldomGrammarCache();

/** Thrown when a text is not a well-formed XML document kasa is willing to read. */
export class XmlParseError extends Error {
  override readonly name = 'XmlParseError';
}

/**
 * Parses an XML document strictly: every parser error or warning-free fatal is an
 * {@link XmlParseError}; a DOCTYPE is refused (SOAP 1.2 Part 1 §5: a SOAP message must not
 * contain a document type declaration — this also rules out entity expansion).
 * Line ends are normalised as XML 1.0 says (CR LF and lone CR → LF) and nothing else.
 */
export function parseXml(text: string): Document {
  if (/<!DOCTYPE/i.test(text)) throw new XmlParseError('a document type declaration is not allowed');
  let doc: Document;
  try {
    doc = new DOMParser({
      locator: false,
      normalizeLineEndings: (source: string) => source.replace(/\r\n?/g, '\n'),
      onError: (level, message) => {
        if (level !== 'warning') throw new XmlParseError(message);
      },
    }).parseFromString(text, 'text/xml');
  } catch (e) {
    throw e instanceof XmlParseError ? e : new XmlParseError(e instanceof Error ? e.message : String(e));
  }
  if (!doc.documentElement) throw new XmlParseError('no root element');
  return doc;
}

/** Element children only, in document order. */
export function elementChildren(parent: Element): Element[] {
  const out: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === node.ELEMENT_NODE) out.push(node as Element);
  }
  return out;
}

/** Whether the element has text other than whitespace directly inside it (mixed content). */
export function hasOwnText(parent: Element): boolean {
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (
      (node.nodeType === node.TEXT_NODE || node.nodeType === node.CDATA_SECTION_NODE) &&
      /\S/.test(node.nodeValue ?? '')
    ) {
      return true;
    }
  }
  return false;
}

export function is(element: Element | undefined, namespace: string, localName: string): element is Element {
  return element !== undefined && element.namespaceURI === namespace && element.localName === localName;
}

/** The non-namespace-declaration attributes of an element. */
export function attributesOf(
  element: Element,
): Array<{ namespace: string | null; localName: string; value: string }> {
  const out: Array<{ namespace: string | null; localName: string; value: string }> = [];
  for (let i = 0; i < element.attributes.length; i++) {
    const attr = element.attributes.item(i)!;
    if (attr.name === 'xmlns' || attr.prefix === 'xmlns') continue;
    out.push({ namespace: attr.namespaceURI, localName: attr.localName ?? attr.name, value: attr.value });
  }
  return out;
}

/** Every element of the document, depth first. */
export function* allElements(root: Element): Generator<Element> {
  yield root;
  for (const child of elementChildren(root)) yield* allElements(child);
}

/**
 * Calls `visit` for every element of the tree under `root` (root included), depth first, in
 * document order — what {@link allElements} yields, without a generator and an array per element
 * (the signature check walks every message this way: capability 13).
 */
export function forEachElement(root: Element, visit: (element: Element) => void): void {
  visit(root);
  for (let node = root.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === node.ELEMENT_NODE) forEachElement(node as Element, visit);
  }
}

/** Escapes an attribute value; tabs and line ends as character references so they survive parsing. */
export function escapeAttribute(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}

/** Escapes element text; CR as a reference so it survives line-end normalisation. */
export function escapeText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}
