import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { parseXml, XmlParseError } from './xml-dom.js';
import { installXmldomGrammarCache } from './xmldom-grammar-cache.js';

const grammar = createRequire(import.meta.url)('@xmldom/xmldom/lib/grammar.js') as {
  reg: (...parts: Array<RegExp | string>) => RegExp;
  QName_group: RegExp;
  S_OPT: RegExp;
  QName_exact: RegExp;
};

describe('xmldom grammar expressions built once (capability 13)', () => {
  it('is installed by xml-dom and hands out the same expression for the same parts', () => {
    expect(installXmldomGrammarCache()).toBe(true);
    const endTag = grammar.reg('^', grammar.QName_group, grammar.S_OPT, '$');
    expect(grammar.reg('^', grammar.QName_group, grammar.S_OPT, '$')).toBe(endTag);
    expect(grammar.reg('^', grammar.QName_group)).not.toBe(endTag);
    expect(endTag.global || endTag.sticky).toBe(false);
    // Installing again does not wrap twice.
    expect(installXmldomGrammarCache()).toBe(true);
    expect(grammar.reg('^', grammar.QName_group, grammar.S_OPT, '$')).toBe(endTag);
  });

  it('answers the qualified-name test as the expression itself, for names remembered or not', () => {
    expect(installXmldomGrammarCache()).toBe(true);
    expect(Object.hasOwn(grammar.QName_exact, 'test')).toBe(true);
    const names = [
      'ekasa:ReceiptData',
      'soapenv:Envelope',
      'wsu:Id',
      'a',
      '_x.y-z',
      'Stánok',
      'a:b:c',
      ':a',
      'a:',
      '1a',
      '-a',
      'a b',
      '',
      'ekasa:Položka',
      `n${'x'.repeat(100)}`,
      `n${'x'.repeat(100)} `,
    ];
    // Twice: the second round answers from what the first remembered.
    for (const name of [...names, ...names]) {
      expect(grammar.QName_exact.test(name), name).toBe(
        RegExp.prototype.test.call(grammar.QName_exact, name),
      );
    }
    expect(grammar.QName_exact.test('a b')).toBe(false);
    expect(grammar.QName_exact.test('ekasa:ReceiptData')).toBe(true);
  });

  it('parses and refuses exactly as before: end tags, comments, processing instructions', () => {
    const ok = [
      '<a><b/></a>',
      '<a ><b></b ></a>',
      '<a:x xmlns:a="urn:a"><!-- c --><?pi x?><a:y>t</a:y></a:x>',
      '<a>\n<b>1</b>\n</a>',
    ];
    for (const text of ok) expect(parseXml(text).documentElement).toBeTruthy();
    const broken = [
      '<a></b>',
      '<a></a b>',
      '<a></a\nb>',
      '<a></ a>',
      '<a><!-- -- --></a>',
      '<a></a><b/>',
      '<a>',
    ];
    for (const text of broken) expect(() => parseXml(text), text).toThrow(XmlParseError);
    // The same text twice: the second parse is no different from the first.
    for (const text of [...ok, ...ok]) expect(parseXml(text).documentElement?.localName).toBeTruthy();
  });
});
