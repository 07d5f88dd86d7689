import type { XmlNode } from './xml-tree.js';

/**
 * A small checker for the two SFS merchant schemas (XSD v2.0): every complex type there is an
 * `xs:sequence` of elements with `maxOccurs="1"` and `minOccurs` 0 or 1, every simple type a
 * restriction of `xs:string` by pattern, length or enumeration. That subset is implemented here
 * exactly, so the rules can name the element that breaks them.
 */

/** Checks a simple value; returns the broken rule in words, or undefined when the value is valid. */
export type SimpleType = (value: string) => string | undefined;

export interface Particle {
  name: string;
  /** `minOccurs="0"`. */
  optional?: boolean;
  type: SimpleType | SequenceType;
}

export interface SequenceType {
  sequence: readonly Particle[];
}

export interface SchemaViolation {
  /** Element path from the root, e.g. `IdentityData/OrganizationUnit/CashRegisterCode`. */
  path: string;
  rule: string;
}

/** `xs:string` restricted by `xs:pattern` (XSD patterns are anchored at both ends). */
export function pattern(source: string): SimpleType {
  const re = new RegExp(`^(?:${source})$`, 'u');
  return (value) => (re.test(value) ? undefined : `must match the pattern ${source}`);
}

/** `xs:string` restricted by `xs:minLength`/`xs:maxLength` (counted in characters). */
export function length(min: number, max: number): SimpleType {
  return (value) => {
    const n = [...value].length;
    return n >= min && n <= max ? undefined : `must be ${min} to ${max} characters long (has ${n})`;
  };
}

/** `xs:string` restricted by `xs:enumeration`. */
export function enumeration(values: readonly string[]): SimpleType {
  return (value) => (values.includes(value) ? undefined : `must be one of ${values.join(', ')}`);
}

/**
 * Checks `node` as the element `name` of `type` in namespace `ns`. Returns the first violation in
 * document order, or undefined when the element is valid.
 */
export function checkElement(
  node: XmlNode,
  name: string,
  type: SimpleType | SequenceType,
  ns: string,
  parentPath = '',
): SchemaViolation | undefined {
  const path = parentPath ? `${parentPath}/${name}` : name;
  if (node.namespace !== ns || node.localName !== name) {
    return { path, rule: `expected element ${name} in namespace ${ns}` };
  }
  if (node.attributes.length > 0) {
    return { path, rule: `attribute ${node.attributes[0]} is not allowed` };
  }
  if (typeof type === 'function') {
    if (node.children.length > 0) {
      return { path, rule: `must hold text only, found element ${node.children[0]!.localName}` };
    }
    const broken = type(node.text);
    return broken === undefined ? undefined : { path, rule: broken };
  }
  // A complex type with element-only content: only whitespace may sit between the children.
  if (node.text.trim() !== '') {
    return { path, rule: 'must not contain text, only elements' };
  }
  let i = 0;
  for (const [p, particle] of type.sequence.entries()) {
    const child = node.children[i];
    if (child && child.namespace === ns && child.localName === particle.name) {
      const violation = checkElement(child, particle.name, particle.type, ns, path);
      if (violation) return violation;
      i += 1;
    } else if (!particle.optional) {
      // Name the element at fault: a child that cannot come here (unknown, repeated, too early),
      // else the required one that is missing.
      const later = type.sequence
        .slice(p + 1)
        .some((q) => child?.namespace === ns && q.name === child.localName);
      if (child && !later) {
        return {
          path: `${path}/${child.localName}`,
          rule: `element is not allowed here, expected ${particle.name}`,
        };
      }
      return { path: `${path}/${particle.name}`, rule: 'required element is missing' };
    }
  }
  const extra = node.children[i];
  if (extra) {
    return {
      path: `${path}/${extra.localName}`,
      rule: 'element is not allowed here (unknown, repeated or out of order)',
    };
  }
  return undefined;
}

/** The first child element named `name` (after a successful check, the only one). */
export function child(node: XmlNode, name: string): XmlNode | undefined {
  return node.children.find((c) => c.localName === name);
}

/** The text of the child element `name`, or undefined when it is absent. */
export function childText(node: XmlNode, name: string): string | undefined {
  return child(node, name)?.text;
}
