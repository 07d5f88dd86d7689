import { readFileSync } from 'node:fs';
import type { Element } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { testMerchant } from '../../../test/support/merchant-keys.js';
import { LOCATIONS, locationRequest, receiptRequest } from '../../../test/support/sfs-requests.js';
import { hasOfficialFixtures, official, SHARED_MISSING } from '../../../test/support/shared-fixtures.js';
import { hasXmlsec1, XMLSEC_MISSING, xmlsecVerifies } from '../../../test/support/xmlsec.js';
import type { SfsReceiptRequest } from '../../core/sfs/message.js';
import {
  locationRequestBody,
  locationRequestElement,
  receiptRequestBody,
  receiptRequestElement,
} from './soap-envelope.js';
import { signEnvelope, verifyEnvelope } from './ws-security.js';
import { attributesOf, elementChildren, parseXml } from './xml-dom.js';

interface Shape {
  element: string;
  attributes: string[];
  children: Shape[];
}

/** Names, namespaces and order of elements, and the attribute names — never text or values. */
function shape(element: Element): Shape {
  return {
    element: `{${element.namespaceURI}}${element.localName}`,
    attributes: attributesOf(element)
      .map((a) => `{${a.namespace ?? ''}}${a.localName}`)
      .sort(),
    children: elementChildren(element).map(shape),
  };
}

const shapeOf = (xml: string) => shape(parseXml(xml).documentElement!);

const merchant = testMerchant();
const at = new Date('2026-03-02T09:15:30Z');
const twoItems = {
  Items: [
    { ItemType: 'K', Name: 'Tovar 1', Price: '150.00', Quantity: '2.0000', VatRate: '23.00' },
    { ItemType: 'K', Name: 'Tovar 2', Price: '87.23', Quantity: '1.0000', VatRate: '19.00' },
  ],
  Amount: '237.23',
};

const receipts: Array<[string, () => SfsReceiptRequest]> = [
  ['pokladnicny_doklad_platitel_DPH', () => receiptRequest(merchant.signer, { at, data: twoItems })],
  [
    'paragon',
    () =>
      receiptRequest(merchant.signer, {
        at,
        data: { ...twoItems, Paragon: 'true', ParagonNumber: '1', IssueDate: '2026-03-01T15:50:14+01:00' },
      }),
  ],
  ['uhrada_faktury', () => receiptRequest(merchant.signer, { at, type: 'UF' })],
  ['neplatny_doklad', () => receiptRequest(merchant.signer, { at, type: 'ND', data: twoItems })],
  ['vklad', () => receiptRequest(merchant.signer, { at, type: 'VK' })],
  ['vyber', () => receiptRequest(merchant.signer, { at, type: 'VY' })],
];

describe.skipIf(!hasOfficialFixtures)(
  `request structure vs the official samples ${hasOfficialFixtures ? '' : ` (skipped: ${SHARED_MISSING})`}`,
  () => {
    it.each(receipts)('%s', (sample, build) => {
      const ours = signEnvelope(receiptRequestElement(build()), merchant.signer);
      const theirs = readFileSync(official('soap-samples', `priklad_${sample}_20190131.xml`), 'utf8');
      expect(shapeOf(ours)).toEqual(shapeOf(theirs));
    });

    it.each([
      ['poloha_GPS', LOCATIONS.gps],
      ['poloha_adresa', LOCATIONS.address],
      ['poloha_ine', LOCATIONS.other],
    ] as const)('%s', (sample, location) => {
      const ours = signEnvelope(locationRequestElement(locationRequest(location, { at })), merchant.signer);
      const theirs = readFileSync(official('soap-samples', `priklad_${sample}_20190131.xml`), 'utf8');
      expect(shapeOf(ours)).toEqual(shapeOf(theirs));
    });
  },
);

describe('requests written with their canonical form (ADR 1106)', () => {
  // Every character C14N or the escapers treat specially, non-ASCII, a surrogate pair, `]]>`.
  const tricky = [
    'Pivo & víno <0,5 l> "dvojité" \'jednoduché\'',
    'tab\there, line\nend, cr\rhere, crlf\r\nend',
    ' medzery na okrajoch ',
    'ľščťžýáíéúäôň ĽŠČŤŽ € 😀',
    ']]> &amp; &#13; &lt;',
  ];
  const receipts = tricky.map((name, n) =>
    receiptRequest(merchant.signer, {
      number: String(100 + n),
      data: {
        Items: [
          { ItemType: 'K', Name: name, Price: '1.00', Quantity: '1.0000', VatRate: '23.00' },
          { ItemType: 'K', Name: 'Rožok', Price: '0.10', Quantity: '1.0000', VatRate: '23.00' },
        ],
        Amount: '1.10',
      },
    }),
  );

  it('writes the same text as before and a canonical form the parsed text canonicalizes to', () => {
    for (const request of receipts) {
      const body = receiptRequestBody(request);
      if (typeof body === 'string') throw new Error('expected a canonical form');
      expect(body.text).toBe(receiptRequestElement(request));
      // verifyEnvelope canonicalizes the Body of the parsed message itself (xml-crypto) and compares
      // its digest with the one signEnvelope took from the writer's canonical form.
      const signed = signEnvelope(body, merchant.signer);
      const verified = verifyEnvelope(signed);
      expect(verified.ok, verified.ok ? '' : verified.reason).toBe(true);
    }
    for (const location of [...Object.values(LOCATIONS), { kind: 'other' as const, text: tricky[0]! }]) {
      const request = locationRequest(location, { at: new Date() });
      const body = locationRequestBody(request);
      if (typeof body === 'string') throw new Error('expected a canonical form');
      expect(body.text).toBe(locationRequestElement(request));
      expect(verifyEnvelope(signEnvelope(body, merchant.signer)).ok).toBe(true);
    }
  });

  it.skipIf(!hasXmlsec1)(
    `is verified by xmlsec1 with every special character${hasXmlsec1 ? '' : ` (skipped: ${XMLSEC_MISSING})`}`,
    () => {
      for (const request of receipts) {
        expect(
          xmlsecVerifies(signEnvelope(receiptRequestBody(request), merchant.signer), merchant.certPem),
        ).toBe(true);
      }
    },
  );

  it('leaves a value with a character XML does not allow to the parse, signed exactly as before', () => {
    const request = receiptRequest(merchant.signer, { number: '200', data: { InvoiceNumber: 'a\u0001b' } });
    expect(receiptRequestBody(request)).toBe(receiptRequestElement(request));
  });
});
