import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testMerchant } from '../../../test/support/merchant-keys.js';
import { type SfsHarness, startSfsHarness } from '../../../test/support/sfs-harness.js';
import {
  item,
  LOCATIONS,
  locationRequest,
  type ReceiptOptions,
  receiptRequest,
} from '../../../test/support/sfs-requests.js';
import type { MessageSigner, SfsOutcome } from '../../core/ports/tax-authority.js';
import { SIM_DUPLICATE_CODE } from '../../core/sfs/ekasa-errors.js';
import type { SfsReceiptRequest } from '../../core/sfs/message.js';
import { formatSfsDateTime } from '../../core/time.js';

/**
 * One test per rule the simulator implements: a request that breaks exactly that rule, sent by
 * the real client over loopback, comes back as that EkasaErrorCode (acceptance of capability 5).
 */
let h: SfsHarness;
let number = 100;
beforeAll(async () => {
  h = await startSfsHarness();
});
afterAll(async () => h.close());

const hours = (n: number) => new Date(Date.now() + n * 3600_000);
const sfsDate = (d: Date) => formatSfsDateTime(d);

function pd(options: ReceiptOptions = {}, signer?: MessageSigner): SfsReceiptRequest {
  return receiptRequest(signer ?? h.merchant.signer, { number: String(++number), ...options });
}
const send = (request: SfsReceiptRequest, signer?: MessageSigner) =>
  h.client.registerReceipt(request, signer ?? h.merchant.signer);
const codeOf = (outcome: SfsOutcome) =>
  outcome.kind === 'rejected' || outcome.kind === 'duplicate' ? outcome.code : outcome.kind;

describe('the simulator accepts', () => {
  it.each(['PD', 'UF', 'ND', 'VK', 'VY'] as const)('a correct %s', async (type) => {
    const outcome = await send(pd({ type }));
    expect(outcome.kind).toBe('accepted');
  });

  it('a correct paragón, a refund with reference, a voucher, packaging and a discount', async () => {
    const outcome = await send(
      pd({
        data: {
          Paragon: 'true',
          ParagonNumber: '12',
          IssueDate: sfsDate(hours(-30)),
          Amount: '10.00',
          Items: [
            item('Tovar', '12.00', '23.00'),
            item('Zľava', '-1.00', '23.00', { ItemType: 'Z' }),
            item('Vrátenie', '-2.00', '19.00', {
              ItemType: 'V',
              ReferenceReceiptId: 'O-7DBCDA8A56EE426DBCDA8A56EE426D1A',
            }),
            item('Poukaz', '-1.00', '23.00', { ItemType: 'VP', VoucherNumber: 'V-1' }),
            item('Záloha fľaša', '0.15', '0.00'),
            item('Vrátená fľaša', '-0.15', '0.00', { ItemType: 'VO' }),
            item('Oprava', '2.00', '20.00', { ItemType: 'O', ReferenceReceiptId: '1234' }),
          ],
        },
      }),
    );
    expect(outcome.kind).toBe('accepted');
  });

  it('a resend older than 96 hours (SendingCount 2)', async () => {
    const old = hours(-120);
    expect((await send(pd({ at: old, sendingCount: 2 }))).kind).toBe('accepted');
  });

  it.each(Object.entries(LOCATIONS))('a location by %s', async (_kind, location) => {
    expect((await h.client.registerLocation(locationRequest(location), h.merchant.signer)).kind).toBe(
      'accepted',
    );
  });
});

describe('the simulator rejects', () => {
  const mutated = async (mutate: (xml: string) => string, request = pd()) =>
    codeOf(await h.clientWith(mutate).registerReceipt(request, h.merchant.signer));

  it('-2 malformed XML', async () => {
    expect(await mutated((xml) => xml.slice(0, -40))).toBe(-2);
  });
  it('-2 elements out of order', async () => {
    expect(
      await mutated((xml) =>
        xml.replace(
          /(<ekasa:ReceiptData .*<\/ekasa:ReceiptData>)(<ekasa:ValidationCode>.*<\/ekasa:ValidationCode>)/s,
          '$2$1',
        ),
      ),
    ).toBe(-2);
  });
  it('-2 an unknown attribute', async () => {
    expect(
      await mutated((xml) => xml.replace('<ekasa:ReceiptData ', '<ekasa:ReceiptData Rounding="0.02" ')),
    ).toBe(-2);
  });
  it('-2 a value outside its pattern', async () => {
    expect(codeOf(await send(pd({ data: { IcDph: 'CZ12345678' } })))).toBe(-2);
  });
  it('-2 a recap that does not follow from the items (kasa: stricter)', async () => {
    expect(codeOf(await send(pd({ data: { BasicVatAmount: '0.70' } })))).toBe(-2);
  });
  it('-2 an old 20 % rate on a sale item in 2026 (kasa: stricter)', async () => {
    expect(
      codeOf(await send(pd({ data: { Items: [item('Tovar', '1.20', '20.00')], Amount: '1.20' } }))),
    ).toBe(-2);
  });
  it('-8 the v1 interface', async () => {
    expect(await mutated((xml) => xml.replace('schema/v2"', 'schema/v1"'))).toBe(-8);
  });
  it('-10 one changed byte in the signed Body', async () => {
    expect(await mutated((xml) => xml.replace('Name="Káva"', 'Name="Kávy"'))).toBe(-10);
  });
  it('-10 no signature', async () => {
    expect(await mutated((xml) => xml.replace(/<soapenv:Header>.*<\/soapenv:Header>/s, ''))).toBe(-10);
  });
  it('-12 a token that is not a certificate', async () => {
    expect(await mutated((xml) => xml.replace(/(<wsse:BinarySecurityToken[^>]*>)[^<]+/, '$1TUlJQ'))).toBe(
      -12,
    );
  });
  it('-13 a certificate of another CA', async () => {
    const stranger = testMerchant();
    expect(codeOf(await send(pd({}, stranger.signer), stranger.signer))).toBe(-13);
  });
  it('-13 an expired certificate', async () => {
    const expired = testMerchant({ ca: h.merchant.ca, notAfter: hours(-1) });
    expect(codeOf(await send(pd({}, expired.signer), expired.signer))).toBe(-13);
  });
  it('-100 a PKP of another document', async () => {
    const request = pd();
    const other = pd();
    expect(codeOf(await send({ ...request, pkp: other.pkp, okp: other.okp }))).toBe(-100);
  });
  it('-101 a DIČ other than the certificate one', async () => {
    const other = testMerchant({ ca: h.merchant.ca, dic: '9999999999' });
    expect(codeOf(await send(pd({}, other.signer), other.signer))).toBe(-101);
  });
  it('-102 a register code other than the certificate one', async () => {
    const other = testMerchant({ ca: h.merchant.ca, register: '88812345678900002' });
    expect(codeOf(await send(pd({}, other.signer), other.signer))).toBe(-102);
  });

  const rejects: Array<[number, string, () => SfsReceiptRequest]> = [
    [
      -103,
      'IssueDate more than 96 h after processing',
      () => pd({ data: { IssueDate: sfsDate(hours(97)) } }),
    ],
    [
      -104,
      'CreateDate more than 96 h after processing',
      () => pd({ at: hours(97), data: { IssueDate: sfsDate(new Date()) } }),
    ],
    [-105, 'CreateDate more than 96 h old on the first attempt', () => pd({ at: hours(-97) })],
    [
      -106,
      'IssueDate before the system start',
      () => pd({ data: { IssueDate: '2019-03-01T10:00:00+01:00' } }),
    ],
    [
      -107,
      'CreateDate before the system start',
      () =>
        pd({
          at: new Date('2019-03-01T09:00:00Z'),
          sendingCount: 3,
          data: { IssueDate: sfsDate(new Date()) },
        }),
    ],
    [
      -111,
      'an OKP that is not the PKP hash',
      () => ({ ...pd(), okp: 'b1873ce0-46db4d14-efc72036-62c71ae1-71628710' }),
    ],
    [-112, 'UF without InvoiceNumber', () => pd({ type: 'UF', data: { InvoiceNumber: undefined } })],
    [-113, 'a VAT breakdown on VK', () => pd({ type: 'VK', data: { TaxFreeAmount: '100.00' } })],
    [
      -114,
      'items on UF',
      () => pd({ type: 'UF', noRecap: true, data: { Items: [item('x', '1.00', '23.00')] } }),
    ],
    [-115, 'InvoiceNumber on PD', () => pd({ data: { InvoiceNumber: 'FA1' } })],
    [-116, 'PD without items', () => pd({ data: { Items: undefined } })],
    [
      -117,
      'a V item without reference',
      () => pd({ data: { Items: [item('x', '-1.00', '23.00', { ItemType: 'V' })] } }),
    ],
    [
      -118,
      'a K item with a reference',
      () => pd({ data: { Items: [item('x', '1.00', '23.00', { ReferenceReceiptId: 'O-1' })] } }),
    ],
    [-119, 'PD without a VAT breakdown in 2026', () => pd({ noRecap: true })],
    [-120, 'TaxBaseBasic without BasicVatAmount', () => pd({ data: { BasicVatAmount: undefined } })],
    [-121, 'ReducedVatAmount without TaxBaseReduced', () => pd({ data: { TaxBaseReduced: undefined } })],
    [-122, 'CustomerId without CustomerIdType', () => pd({ data: { CustomerId: '12345678' } })],
    [
      -123,
      'a customer on ND',
      () => pd({ type: 'ND', data: { CustomerId: '12345678', CustomerIdType: 'ICO' } }),
    ],
    [-124, 'a paragón without number', () => pd({ data: { Paragon: 'true' } })],
    [-125, 'a paragón number without paragón', () => pd({ data: { ParagonNumber: '3' } })],
    [-126, 'a paragón VK', () => pd({ type: 'VK', data: { Paragon: 'true', ParagonNumber: '3' } })],
    [
      -127,
      'a K item with a negative price',
      () => pd({ data: { Items: [item('x', '-1.00', '23.00')], Amount: '-1.00' } }),
    ],
    [
      -128,
      'a discount with a positive price',
      () => pd({ data: { Items: [item('x', '1.00', '23.00', { ItemType: 'Z' })] } }),
    ],
    [
      -129,
      'SellerId without SellerIdType',
      () => pd({ data: { Items: [item('x', '1.00', '23.00', { SellerId: '1234567890' })] } }),
    ],
    [
      -130,
      'SpecialRegulation on a 23 % item',
      () => pd({ data: { Items: [item('x', '1.00', '23.00', { SpecialRegulation: 'OOD' })] } }),
    ],
    [
      -131,
      'VoucherNumber on a K item',
      () => pd({ data: { Items: [item('x', '1.00', '23.00', { VoucherNumber: 'V1' })] } }),
    ],
    [
      -132,
      'a CreateDate in UTC',
      () => pd({ data: { CreateDate: new Date().toISOString().replace(/\.\d+Z$/, '+00:00') } }),
    ],
  ];
  it.each(rejects)('%i %s', async (code, _what, build) => {
    expect(codeOf(await send(build()))).toBe(code);
  });

  const locationCases: Array<[number, string, Date, number]> = [
    [-108, 'a location CreateDate more than 96 h ahead', hours(97), 1],
    [-109, 'a location CreateDate more than 96 h old on the first attempt', hours(-97), 1],
    [-110, 'a location CreateDate before the system start', new Date('2019-03-01T09:00:00Z'), 2],
  ];
  it.each(locationCases)('%i %s', async (code, _what, at, sendingCount) => {
    const outcome = await h.client.registerLocation(
      locationRequest(LOCATIONS.gps, { at, sendingCount }),
      h.merchant.signer,
    );
    expect(codeOf(outcome)).toBe(code);
  });

  it('-132 a location CreateDate with a summer offset in winter', async () => {
    const request = locationRequest(LOCATIONS.other, { data: { CreateDate: '2026-11-22T06:00:00+02:00' } });
    expect(codeOf(await h.client.registerLocation(request, h.merchant.signer))).toBe(-132);
  });

  it(`${SIM_DUPLICATE_CODE} (simulator) a different document under a registered receipt number → duplicate`, async () => {
    const first = pd();
    expect((await send(first)).kind).toBe('accepted');
    const second = pd({ number: first.data.ReceiptNumber, data: { Amount: '6.08' } });
    const outcome = await send(second);
    expect(outcome.kind).toBe('duplicate');
    expect(codeOf(outcome)).toBe(SIM_DUPLICATE_CODE);
  });

  it('a resend (SendingCount > 1) of a registered document → success with the Id of the first registration (ADR 0706)', async () => {
    const first = pd();
    const registered = await send(first);
    expect(registered.kind).toBe('accepted');
    const resend = { ...first, header: { ...first.header, Uuid: crypto.randomUUID(), SendingCount: '2' } };
    const again = await send(resend);
    expect(again).toMatchObject({ kind: 'accepted', id: (registered as { id: string }).id });
    const history = h.sim.history().filter((e) => e.pkp === first.pkp);
    expect(history.map((e) => [e.outcome, e.sendingCount])).toEqual([
      ['accepted', '1'],
      ['repeated', '2'],
    ]);
    expect(history[1]).toMatchObject({ requestDate: first.header.RequestDate, okp: first.okp });
  });

  it(`${SIM_DUPLICATE_CODE} (simulator) the same registered document sent again with SendingCount 1`, async () => {
    const first = pd();
    expect((await send(first)).kind).toBe('accepted');
    const again = await send({ ...first, header: { ...first.header, Uuid: crypto.randomUUID() } });
    expect(codeOf(again)).toBe(SIM_DUPLICATE_CODE);
  });

  it('the lost-answer fault (drop, process: true) registers the document: the resend gets its Id', async () => {
    const first = pd();
    h.sim.injectFault({ kind: 'drop', process: true });
    expect((await send(first)).kind).toBe('unreachable');
    const registered = h.sim.history().find((e) => e.pkp === first.pkp);
    expect(registered).toMatchObject({ outcome: 'dropped', fault: 'drop', registration: 'new' });
    const resend = { ...first, header: { ...first.header, Uuid: crypto.randomUUID(), SendingCount: '2' } };
    const again = await send(resend);
    expect(again.kind).toBe('accepted');
    expect(h.sim.history().at(-1)).toMatchObject({
      outcome: 'repeated',
      pkp: first.pkp,
      registration: 'repeat',
    });
  });
});
