import { describe, expect, it } from 'vitest';
import { testMerchant } from '../../../test/support/merchant-keys.js';
import { item, LOCATIONS, locationRequest, receiptRequest } from '../../../test/support/sfs-requests.js';
import { defaultDateRules } from './date-rules.js';
import { checkReceiptLexical } from './message-lexical.js';
import {
  checkLocationMessage,
  checkLocationMessageAfterSchema,
  checkReceiptMessage,
  checkReceiptMessageAfterSchema,
} from './message-rules.js';

const merchant = testMerchant();
const hours = (n: number) => new Date(Date.now() + n * 3600_000);

describe('the message rules after the schema (the simulator checks the schema first, once)', () => {
  it('answer every request whose schema holds as the whole rules do, in the same order', () => {
    const dates = defaultDateRules(new Date());
    const good = receiptRequest(merchant.signer);
    const requests = [
      good,
      receiptRequest(merchant.signer, { type: 'UF' }),
      receiptRequest(merchant.signer, { type: 'VK' }),
      { ...good, okp: good.okp.replace(/^./, (c) => (c === '0' ? '1' : '0')) }, // −111
      receiptRequest(merchant.signer, { at: hours(200) }), // dates ahead
      receiptRequest(merchant.signer, { at: hours(-200) }), // a first attempt too old
      receiptRequest(merchant.signer, { at: new Date('2019-01-01T10:00:00Z') }), // before the system
      receiptRequest(merchant.signer, { data: { Amount: '6.08' } }), // content
      receiptRequest(merchant.signer, { noRecap: true }),
      receiptRequest(merchant.signer, { data: { Items: [item('Káva', '3.69', '5.00')] } }),
      // Two rules broken at once: the first in the order wins on both paths.
      receiptRequest(merchant.signer, { at: hours(200), data: { Amount: '6.08' } }),
      { ...receiptRequest(merchant.signer, { data: { Amount: '6.08' } }), okp: good.okp },
    ];
    const answers = requests.map((request) => {
      expect(checkReceiptLexical(request)).toBeUndefined();
      const whole = checkReceiptMessage(request, dates);
      expect(checkReceiptMessageAfterSchema(request, dates)).toEqual(whole);
      return whole?.code ?? 0;
    });
    // The cases reach the rules they are meant to (not all answered by the first one).
    expect(new Set(answers).size).toBeGreaterThanOrEqual(5);
    expect(answers[0]).toBe(0);
    expect(answers[3]).toBe(-111);

    for (const request of [
      locationRequest(LOCATIONS.gps),
      locationRequest(LOCATIONS.address, { at: hours(200) }),
      locationRequest(LOCATIONS.other, { at: new Date('2019-01-01T10:00:00Z') }),
    ]) {
      expect(checkLocationMessageAfterSchema(request, dates)).toEqual(checkLocationMessage(request, dates));
    }
  });

  it('leave the schema to the caller: the whole rules answer −2 first', () => {
    const dates = defaultDateRules(new Date());
    const broken = receiptRequest(merchant.signer, { data: { Amount: '6.071' } });
    expect(checkReceiptMessage(broken, dates)?.code).toBe(-2);
    expect(checkReceiptMessageAfterSchema(broken, dates)?.code).not.toBe(-2);
  });
});
