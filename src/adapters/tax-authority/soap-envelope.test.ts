import { readFileSync } from 'node:fs';
import type { Element } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { testMerchant } from '../../../test/support/merchant-keys.js';
import { LOCATIONS, locationRequest, receiptRequest } from '../../../test/support/sfs-requests.js';
import { hasOfficialFixtures, official, SHARED_MISSING } from '../../../test/support/shared-fixtures.js';
import type { SfsReceiptRequest } from '../../core/sfs/message.js';
import { locationRequestElement, receiptRequestElement } from './soap-envelope.js';
import { signEnvelope } from './ws-security.js';
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
