import { describe, expect, it } from 'vitest';
import { FiscalError } from '../../core/fiscal-error.js';
import { XML_LIMITS, xmlShapeBreach } from './xml-limits.js';
import { parseXmlTree } from './xml-tree-parser.js';

const nested = (levels: number) => `${'<a>'.repeat(levels)}x${'</a>'.repeat(levels)}`;
const siblings = (count: number) => `<r>${'<a/>'.repeat(count - 1)}</r>`;

function refusal(xml: string, what: 'identification data' | 'authentication data' = 'identification data') {
  try {
    parseXmlTree(xml, what);
  } catch (e) {
    if (FiscalError.is(e)) return { code: e.resultCode, field: e.details?.field, message: e.message };
    throw e;
  }
  return undefined;
}

describe('merchant XML bounds (ADR 0602)', () => {
  it('counts elements and levels exactly at the bounds', () => {
    expect(xmlShapeBreach(nested(XML_LIMITS.depth))).toBeUndefined();
    expect(xmlShapeBreach(nested(XML_LIMITS.depth + 1))).toMatch(/nested more than 32 levels/);
    expect(xmlShapeBreach(siblings(XML_LIMITS.elements))).toBeUndefined();
    expect(xmlShapeBreach(siblings(XML_LIMITS.elements + 1))).toMatch(/more than 1000 elements/);
  });

  it('does not count what only looks like tags: comments, CDATA, instructions, quoted attributes', () => {
    const noise = `<!-- ${'<a>'.repeat(50)} --><![CDATA[${'<b>'.repeat(50)}]]><?pi <c><c><c>?>`;
    expect(
      xmlShapeBreach(`<?xml version="1.0"?><r x="${'<d>'.repeat(50)}" y='>'>${noise}<e/></r>`),
    ).toBeUndefined();
    // Closing and self-closing tags do not deepen: 40 siblings each one level down stay at level 2.
    expect(xmlShapeBreach(`<r>${'<a><b/></a>'.repeat(40)}</r>`)).toBeUndefined();
  });

  it('refuses with 404 naming the field: too deep, too many elements, too large', () => {
    expect(refusal(nested(70_000))).toMatchObject({ code: 404, field: 'identificationData' });
    expect(refusal(siblings(240_000))).toMatchObject({ code: 404, field: 'identificationData' });
    const large = `<r>${'x'.repeat(XML_LIMITS.identificationBytes)}</r>`;
    expect(refusal(large)).toMatchObject({ code: 404, field: 'identificationData' });
    expect(refusal(large)?.message).toMatch(/bytes/);
    // The authentication data carry the keystore in Base64: the same text is within their bound.
    expect(refusal(large, 'authentication data')).toBeUndefined();
    expect(refusal(nested(40), 'authentication data')).toMatchObject({
      code: 404,
      field: 'authenticationData',
    });
  });

  it('builds the tree of a file within the bounds, in document order, without recursion', () => {
    const tree = parseXmlTree(`<r><a>1</a><b><c>2</c>3</b>${nested(30)}</r>`, 'identification data');
    expect(tree.children.map((c) => c.localName)).toEqual(['a', 'b', 'a']);
    expect(tree.children[1]).toMatchObject({ text: '3', children: [{ localName: 'c', text: '2' }] });
    let depth = 1;
    for (let n = tree.children[2]; n; n = n.children[0]) depth++;
    expect(depth).toBe(31);
  });
});
