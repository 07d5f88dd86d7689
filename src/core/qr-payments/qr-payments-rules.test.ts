import { describe, expect, it } from 'vitest';
import { parsePaymeLink } from '../../simulators/nop/payme-parser.js';
import { isValidIban, normalizeIban } from './iban.js';
import { integrityHash } from './integrity-hash.js';
import { identityFromSubject, registerTopic } from './nop-identity.js';
import { readNotification } from './notification.js';
import { paymeLink } from './payme-link.js';
import { foldPaymeText } from './payme-text.js';
import { mismatchOf, stateAfterPayment } from './payment-intent.js';
import { QR_PAYMENT_SETTING_DEFAULTS, readQrPaymentSettings } from './qr-payment-settings.js';

const ID = 'QR-ab29e346f1d841c8a95a63d857490818';

describe('integrity hash (research §2.6)', () => {
  it('matches the published test vector', () => {
    expect(integrityHash('SK4811000000002944116480', 12345, 'EUR', ID)).toBe(
      'b150d2343fefd404f89788efece5e0c6bd423005553d708fb40bf600b1f4c8ae',
    );
  });
});

describe('IBAN', () => {
  it('normalises and checks mod-97', () => {
    expect(normalizeIban('sk48 1100 0000 0029 4411 6480')).toBe('SK4811000000002944116480');
    expect(isValidIban('SK4811000000002944116480')).toBe(true);
    expect(isValidIban('SK4811000000002944116481')).toBe(false);
    expect(isValidIban('SK48')).toBe(false);
  });
});

describe('Payme link (research §4)', () => {
  it('builds /2/m/PME with IBAN, AM, CC, PI, CN, MSG and no DT; a strict bank parser reads it back', () => {
    const link = paymeLink({
      type: 'm',
      iban: 'SK4811000000002944116480',
      amountCents: 20030,
      paymentId: ID,
      creditorName: 'Kaviareň Žilina s.r.o.',
      message: 'Prevádzka Hlavná 1 – pult €',
    });
    expect(link).toBe(
      `https://payme.sk/2/m/PME?IBAN=SK4811000000002944116480&AM=200.30&CC=EUR&PI=${ID}&CN=Kaviaren%20Zilina%20s.r.o.&MSG=Prevadzka%20Hlavna%201%20pult`,
    );
    expect(link).not.toContain('DT=');
    expect(parsePaymeLink(link)).toEqual({
      type: 'm',
      iban: 'SK4811000000002944116480',
      amount: '200.30',
      currency: 'EUR',
      paymentId: ID,
      creditorName: 'Kaviaren Zilina s.r.o.',
      message: 'Prevadzka Hlavna 1 pult',
    });
  });

  it('the strict parser refuses DT, unknown or repeated parameters, a bad IBAN, a 1-decimal amount', () => {
    const good = `https://payme.sk/2/m/PME?IBAN=SK4811000000002944116480&AM=1.00&CC=EUR&PI=${ID}&CN=A`;
    expect(() => parsePaymeLink(good)).not.toThrow();
    expect(() => parsePaymeLink(`${good}&DT=20260301`)).toThrow(/DT/);
    expect(() => parsePaymeLink(`${good}&CN=B`)).toThrow(/twice/);
    expect(() => parsePaymeLink(good.replace('6480', '6481'))).toThrow(/IBAN/);
    expect(() => parsePaymeLink(good.replace('AM=1.00', 'AM=1.0'))).toThrow(/AM/);
    expect(() => parsePaymeLink(good.replace('CC=EUR', 'CC=CZK'))).toThrow(/CC/);
  });

  it('folds text to the recommended characters', () => {
    expect(foldPaymeText('  Ľudo & syn  „obchod“  ')).toBe('Ludo syn obchod');
  });
});

describe('settings in one typed place', () => {
  it('defaults: off, no IBAN, Payme m, 300 s, tender "QR platba"', () => {
    expect(readQrPaymentSettings({})).toEqual(QR_PAYMENT_SETTING_DEFAULTS);
  });
  it('stored values when valid, defaults when not; demo defaults; flags win', () => {
    const s = readQrPaymentSettings({
      nopEnvironment: 'prod',
      nopIban: 'sk31 1200 0000 1987 4263 7541',
      nopExpirySeconds: 5,
      nopPaymeType: 'x',
    });
    expect(s).toMatchObject({
      nopEnvironment: 'prod',
      nopIban: 'SK3112000000198742637541',
      nopExpirySeconds: 300,
      nopPaymeType: 'm',
    });
    expect(readQrPaymentSettings({ nopIban: 'SK0000' }).nopIban).toBeUndefined();
    expect(readQrPaymentSettings({}, { demo: true })).toMatchObject({
      nopEnvironment: 'int',
      nopIban: 'SK4811000000002944116480',
    });
    expect(
      readQrPaymentSettings({ nopEnvironment: 'prod' }, { fixed: { nopEnvironment: 'off' } }).nopEnvironment,
    ).toBe('off');
  });
});

describe('notification reading', () => {
  const n = {
    transactionStatus: 'ACCC',
    transactionAmount: { amount: '667.00', currency: 'EUR' },
    endToEndId: ID,
    dataIntegrityHash: 'a'.repeat(64),
    receivedAt: '2026-03-02T09:00:00Z',
  };
  it('reads the amount in cents and keeps the bank time', () => {
    expect(readNotification(n)).toEqual({
      ok: {
        endToEndId: ID,
        amountCents: 66700,
        amountText: '667.00',
        currency: 'EUR',
        dataIntegrityHash: 'a'.repeat(64),
        bankTime: '2026-03-02T09:00:00Z',
      },
    });
  });
  it.each([
    [{ ...n, transactionStatus: 'RJCT' }, /ACCC/],
    [{ ...n, transactionAmount: { amount: 667, currency: 'EUR' } }, /amount/],
    [{ ...n, transactionAmount: { amount: '667.0', currency: 'EUR' } }, /amount/],
    [{ ...n, endToEndId: 'E2E-1' }, /endToEndId/],
    [{ ...n, dataIntegrityHash: 'xyz' }, /dataIntegrityHash/],
    [[n], /object/],
  ])('refuses %j', (value, problem) => {
    const r = readNotification(value);
    expect('problem' in r && r.problem).toMatch(problem);
  });
  it('refuses an MQTT delivery whose topic names another id than endToEndId', () => {
    const prefix = 'VATSK-2021000003/POKLADNICA-88820210000030001';
    expect('ok' in readNotification(n, `${prefix}/${ID}`)).toBe(true);
    const other = readNotification(n, `${prefix}/QR-${'b'.repeat(32)}`);
    expect('problem' in other && other.problem).toMatch(/topic .* names another payment/);
  });
});

describe('intent states (ADR 0905)', () => {
  it('a correct payment: PENDING → PAID, CANCELLED/EXPIRED → LATE_PAID; PAID and MISMATCH stay', () => {
    expect(stateAfterPayment('PENDING', {})).toBe('PAID');
    expect(stateAfterPayment('CANCELLED', {})).toBe('LATE_PAID');
    expect(stateAfterPayment('EXPIRED', {})).toBe('LATE_PAID');
    expect(stateAfterPayment('PAID', {})).toBe('PAID');
    expect(stateAfterPayment('MISMATCH', {})).toBe('MISMATCH');
  });
  it('a wrong payment: PENDING → MISMATCH, CANCELLED → LATE_PAID (money is there: refund)', () => {
    expect(stateAfterPayment('PENDING', { mismatch: 'hash' })).toBe('MISMATCH');
    expect(stateAfterPayment('CANCELLED', { mismatch: 'underpaid' })).toBe('LATE_PAID');
  });
  it('mismatch: hash first, then currency, then the amount either way', () => {
    const intent = { amountCents: 745 };
    expect(mismatchOf(intent, { amountCents: 745, currency: 'EUR', hashOk: false })).toBe('hash');
    expect(mismatchOf(intent, { amountCents: 745, currency: 'CZK', hashOk: true })).toBe('currency');
    expect(mismatchOf(intent, { amountCents: 744, currency: 'EUR', hashOk: true })).toBe('underpaid');
    expect(mismatchOf(intent, { amountCents: 746, currency: 'EUR', hashOk: true })).toBe('overpaid');
    expect(mismatchOf(intent, { amountCents: 745, currency: 'EUR', hashOk: true })).toBeUndefined();
  });
});

describe('identity from the certificate subject (research §2.2)', () => {
  it('reads VATSK and POKLADNICA in both spellings; none from a foreign subject', () => {
    const id = identityFromSubject(
      'CN=VATSK-2021000003 POKLADNICA 88820210000030001, OU=88820210000030001, C=SK',
    );
    expect(id).toEqual({ dic: '2021000003', cashRegisterCode: '88820210000030001' });
    expect(registerTopic(id!)).toBe('VATSK-2021000003/POKLADNICA-88820210000030001');
    expect(identityFromSubject('CN=POKLADNICA-88820210000030001 VATSK-2021000003')).toEqual(id);
    expect(identityFromSubject('CN=shop.example')).toBeUndefined();
    expect(identityFromSubject('CN=VATSK-2021000003 POKLADNICA 888202100000300011')).toBeUndefined();
    // An 11-digit DIČ is not a 10-digit one with a digit to spare (research §2.2: VATSK-(\d{10})).
    expect(identityFromSubject('CN=VATSK-20210000031 POKLADNICA 88820210000030001')).toBeUndefined();
    expect(identityFromSubject('CN=XVATSK-2021000003 POKLADNICA 88820210000030001')).toBeUndefined();
  });
});
