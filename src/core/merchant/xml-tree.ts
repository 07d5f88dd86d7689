/**
 * A parsed XML element, reduced to what the XSD rules of the merchant files need. The XML parser
 * (an adapter) builds it; the rules in core/merchant check it, so the schema rules stay free of any
 * XML library. Comments and processing instructions are dropped (XSD allows them anywhere).
 */
export interface XmlNode {
  /** Namespace URI of the element, `null` when it has none. */
  namespace: string | null;
  /** Local name (without prefix). */
  localName: string;
  /** Qualified names of attributes other than namespace declarations and `xsi:*`. */
  attributes: string[];
  /** Child elements in document order. */
  children: XmlNode[];
  /** The text and CDATA directly inside the element, concatenated, exactly as written. */
  text: string;
}

/** The namespace of the SFS identification and authentication data files (XSD v2.0). */
export const UDAJE_NS = 'http://financnasprava.sk/ekasa/udaje/schema/v2';
