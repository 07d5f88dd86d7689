import { afterEach, describe, expect, it, vi } from 'vitest';
import { FiscalError } from '../core/fiscal-error.js';
import { parseJsonBody } from './json-body.js';

const bytes = (text: string) => new TextEncoder().encode(text);

/** What parseJsonBody answers: the value, or the FiscalError's code, field and message. */
function answer(body: Uint8Array): unknown {
  try {
    return { value: parseJsonBody(body) };
  } catch (e) {
    if (!FiscalError.is(e)) throw e;
    return { resultCode: e.resultCode, message: e.message, details: e.details };
  }
}

/** The rule as it stood before ADR 1113: every key and string checked by the reviver. */
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
function everyValueChecked(text: string): boolean {
  let lone = false;
  JSON.parse(text, (key, value: unknown) => {
    if (LONE.test(key) || (typeof value === 'string' && LONE.test(value))) lone = true;
    return value;
  });
  return lone;
}

afterEach(() => vi.restoreAllMocks());

describe('parseJsonBody (ADR 1113: the surrogate reviver only where an escape can make one)', () => {
  const bodies = [
    '{"name":"Káva","price":2.5,"documentEntries":[{"name":"Rožok 🥐","quantity":3}]}',
    '{"name":"\\ud83e\\udd50"}', // a pair, escaped: text
    '{"name":"\\uD83E\\uDD50 and \\u00e1"}',
    '{"name":"\\ud800"}', // lone high
    '{"name":"\\uDc00"}', // lone low, mixed case
    '{"\\u005f_proto__":1}', // an escape spelling __proto__: an own property either way
    '{"name":"\\uDC00x"}', // lone low
    '{"\\udbff":1}', // in a key
    '{"a":["\\udfff"]}', // in an array
    '{"name":"\\\\ud800"}', // an escaped backslash, then the letters u d 8 0 0: text
    '{"name":"\\u0064800 \\u005cud800"}', // escapes that spell the letters, not a surrogate
    '{"name":"\\ue000\\ud7ff"}', // just outside the surrogates
    '{"a":"\\ud83e","b":"\\udd50"}', // halves in two strings: both lone
  ];

  it('answers every body as checking every key and string did', () => {
    for (const text of bodies) {
      const got = answer(bytes(text));
      if (everyValueChecked(text)) {
        expect(got, text).toMatchObject({ resultCode: 701, details: { field: 'body' } });
      } else {
        expect(got, text).toEqual({ value: JSON.parse(text) });
      }
    }
  });

  it('a body without a surrogate escape is parsed without a reviver; one with an escape is checked', () => {
    const parse = vi.spyOn(JSON, 'parse');
    parseJsonBody(bytes('{"name":"Káva \\u00e1","n":[1,2,{"x":null}]}'));
    expect(parse).toHaveBeenCalledTimes(1);
    expect(parse.mock.calls[0]).toHaveLength(1);
    parse.mockClear();
    parseJsonBody(bytes('{"name":"\\ud83e\\udd50"}'));
    expect(parse.mock.calls[0]?.[1]).toEqual(expect.any(Function));
  });

  it('UTF-8 bytes of a surrogate never reach the parser: 700, as any invalid UTF-8', () => {
    // ED A0 80 would be U+D800 in a lenient decoder (CESU-8).
    const body = new Uint8Array([...bytes('{"name":"'), 0xed, 0xa0, 0x80, ...bytes('"}')]);
    expect(answer(body)).toMatchObject({ resultCode: 700 });
  });

  it('malformed JSON says where it breaks (line and column) when the parser tells, and never echoes the body', () => {
    expect(answer(bytes('{\n  "amount": 1.2.3,\n  "type": "PD"\n}'))).toMatchObject({
      resultCode: 700,
      message: 'The request body is not valid JSON (it breaks at line 2, column 16).',
    });
    expect(answer(bytes('{"amount":1,}'))).toMatchObject({
      message: 'The request body is not valid JSON (it breaks at line 1, column 13).',
    });
    // V8 names no position for an unexpected token: the sentence stays without one.
    expect(answer(bytes('{"secret":}'))).toMatchObject({ message: 'The request body is not valid JSON.' });
  });

  it('keeps the other answers: blank is undefined, malformed 700, too deep 701', () => {
    expect(parseJsonBody(bytes('  \n'))).toBeUndefined();
    expect(answer(bytes('{"a":'))).toMatchObject({ resultCode: 700 });
    expect(answer(bytes('{"a":"\\ud800"'))).toMatchObject({ resultCode: 700 }); // malformed first
    expect(answer(bytes(`${'['.repeat(40)}${']'.repeat(40)}`))).toMatchObject({ resultCode: 701 });
  });
});

describe('parseJsonBody refuses a member named twice in one object (ADR 0425)', () => {
  const twice: Array<[string, string]> = [
    ['{"amount":1,"amount":2}', 'amount'],
    ['{"amount":1,"type":"PD","amount":1}', 'amount'], // the same value too
    ['{"a":1,"\\u0061":2}', 'a'], // an escape spelling the same name
    ['{"__proto__":1,"__proto__":2}', '__proto__'],
    ['{"a\\\\":1,"a\\\\":2}', 'a\\'], // a name ending in an escaped backslash
    ['{"printer":{"printDelay":1,"printDelay":2}}', 'printer.printDelay'],
    ['{"documentEntries":[{"name":"a"},{"name":"b","price":1,"price":2}]}', 'documentEntries[1].price'],
    ['[{"a":1},[0,{"b":1,"b":1}]]', '[1][1].b'],
    [' { "x" : { } , "x" : [ ] } ', 'x'],
  ];

  it('answers 701 naming the member path, at any depth', () => {
    for (const [text, field] of twice) {
      expect(answer(bytes(text)), text).toEqual({
        resultCode: 701,
        message: `${field}: appears twice in the request`,
        details: { field },
      });
    }
  });

  it('accepts the same name in different objects, and names that only look alike', () => {
    const once = [
      '{"a":{"a":1},"b":[{"a":1},{"a":2}]}',
      '{"x":"\\"a\\":1,\\"a\\":2","a":1}', // the pair is inside a string
      '{"a":1,"A":2,"a ":3}',
      '{"a\\\\":1,"a":2}', // `a\` and `a`
      '{"\\ud83e\\udd50":1,"\\ud83e\\udd51":2}',
      '[1,"a","a",{"a":[]}]',
      '"a"',
      '{}',
    ];
    for (const text of once) expect(answer(bytes(text)), text).toEqual({ value: JSON.parse(text) });
  });

  it('keeps the order of the answers: malformed 700 first, then a lone surrogate the parse kept', () => {
    expect(answer(bytes('{"a":1,"a":2'))).toMatchObject({ resultCode: 700 });
    expect(answer(bytes('{"a":1,"a":"\\ud800"}'))).toMatchObject({ details: { field: 'body' } });
    // Before ADR 0425 this body was accepted as {"a":"x"}: the parse dropped the first member,
    // lone surrogate and all, unseen. Now the duplicate itself is the answer.
    expect(answer(bytes('{"a":"\\ud800","a":"x"}'))).toMatchObject({
      resultCode: 701,
      details: { field: 'a' },
    });
  });
});
