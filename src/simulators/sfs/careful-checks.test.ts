import { X509Certificate } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIC, TEST_REGISTER, testMerchant } from '../../../test/support/merchant-keys.js';
import { type SfsHarness, startSfsHarness } from '../../../test/support/sfs-harness.js';
import {
  item,
  LOCATIONS,
  locationRequest,
  type ReceiptOptions,
  receiptRequest,
} from '../../../test/support/sfs-requests.js';
import type { MessageSigner, SfsOutcome } from '../../core/ports/tax-authority.js';
import type { SfsReceiptRequest } from '../../core/sfs/message.js';
import { formatSfsDateTime } from '../../core/time.js';
import { CAREFUL_CHECK_NAMES, type CarefulCheck } from './careful-checks.js';

/**
 * Capability 16 point 3 / ADR 0422: one hand-built request per careful check. Each is refused with its
 * simulator-only code while the check is on, and accepted with the check switched off — so the
 * refusal comes from that check and nothing else.
 */
let h: SfsHarness;
let number = 7000;
beforeAll(async () => {
  h = await startSfsHarness();
  // The first accepted receipt fixes this register's identity data for its certificate.
  expect((await send(pd())).kind).toBe('accepted');
});
afterAll(async () => h.close());
afterEach(() => {
  h.sim.setCarefulChecks(Object.fromEntries(CAREFUL_CHECK_NAMES.map((name) => [name, true])));
});

const hours = (n: number) => new Date(Date.now() + n * 3600_000);
function pd(options: ReceiptOptions = {}, signer?: MessageSigner): SfsReceiptRequest {
  return receiptRequest(signer ?? h.merchant.signer, { number: String(++number), ...options });
}
const send = (request: SfsReceiptRequest, signer?: MessageSigner) =>
  h.client.registerReceipt(request, signer ?? h.merchant.signer);
const codeOf = (outcome: SfsOutcome) => (outcome.kind === 'rejected' ? outcome.code : outcome.kind);

/** Refused with `code` while `check` is on; the same message accepted once it is off. */
async function refusedOnlyBy(
  check: CarefulCheck,
  code: number,
  build: () => SfsReceiptRequest,
  signer?: MessageSigner,
): Promise<void> {
  const outcome = await send(build(), signer);
  expect(codeOf(outcome)).toBe(code);
  if (outcome.kind === 'rejected') expect(outcome.text).toMatch(/simulátor/);
  h.sim.setCarefulChecks({ [check]: false });
  expect(codeOf(await send(build(), signer))).toBe('accepted');
}

describe('careful checks of the SFS simulator (simulator-only codes)', () => {
  it('−901 a Uuid already used by another accepted message; the very same message again is fine', async () => {
    const first = pd();
    expect((await send(first)).kind).toBe('accepted');
    expect((await send(first)).kind).toBe('accepted');
    await refusedOnlyBy('uuid-reuse', -901, () => ({
      ...pd(),
      header: { ...pd().header, Uuid: first.header.Uuid },
    }));
  });

  it('−901 also across operations: a location reusing a receipt Uuid', async () => {
    const receipt = pd();
    expect((await send(receipt)).kind).toBe('accepted');
    const location = locationRequest(LOCATIONS.gps);
    location.header.Uuid = receipt.header.Uuid;
    expect(codeOf(await h.client.registerLocation(location, h.merchant.signer))).toBe(-901);
  });

  it('−902 Amount that is neither the item sum nor the sum with a cash rounding', async () => {
    // items 3.69 + 2.38 = 6.07
    expect((await send(pd({ data: { Amount: '6.05' } }))).kind).toBe('accepted'); // cash rounding
    expect((await send(pd({ data: { Amount: '6.10' } }))).kind).toBe('accepted'); // cash part 0.02 → 0.05
    await refusedOnlyBy('amount-sum', -902, () => pd({ data: { Amount: '6.17' } }));
  });

  it('−903 a VO item (returned packaging) at a non-zero VAT rate', async () => {
    const items = [item('Pivo', '1.00', '23.00'), item('Fľaša späť', '-0.15', '23.00', { ItemType: 'VO' })];
    await refusedOnlyBy('vo-rate', -903, () => pd({ data: { Items: items, Amount: '0.85' } }));
  });

  it('−904 Quantity 0 with a non-zero Price', async () => {
    const items = [item('Káva', '3.69', '23.00'), item('Džús', '2.38', '19.00', { Quantity: '0.0000' })];
    await refusedOnlyBy('zero-quantity', -904, () => pd({ data: { Items: items } }));
  });

  it('−905 an IČO or IČ DPH that is none of the register’s identity data', async () => {
    await refusedOnlyBy('merchant-identity', -905, () => pd({ data: { Ico: '87654321' } }));
    h.sim.setCarefulChecks({ 'merchant-identity': true });
    expect(codeOf(await send(pd({ data: { IcDph: 'SK1234567891' } })))).toBe(-905);
  });

  it('−905 knows identity data registered with it (/__sim/merchant: new identification data)', async () => {
    expect(codeOf(await send(pd({ data: { Ico: '11111111' } })))).toBe(-905);
    const res = await fetch(`${h.sim.baseUrl}/__sim/merchant`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cashRegisterCode: TEST_REGISTER, ico: '11111111', icDph: `SK${TEST_DIC}` }),
    });
    expect(res.status).toBe(200);
    expect((await send(pd({ data: { Ico: '11111111' } }))).kind).toBe('accepted');
  });

  it('−905 knows the identity data issued to a register (embedded: the merchant kasa holds)', async () => {
    const issued = { cashRegisterCode: TEST_REGISTER, ico: '22222222', icDph: `SK${TEST_DIC}` };
    const other = await startSfsHarness({ issuedIdentities: () => [issued] });
    try {
      const sendOther = (request: SfsReceiptRequest) =>
        other.client.registerReceipt(request, other.merchant.signer);
      const make = (Ico: string) =>
        receiptRequest(other.merchant.signer, { number: String(++number), data: { Ico } });
      expect(codeOf(await sendOther(make('33333333')))).toBe(-905);
      expect((await sendOther(make('22222222'))).kind).toBe('accepted');
    } finally {
      await other.close();
    }
  });

  it('−905/−908 read the issued lists only for what is not learnt yet, so one issued mid-run counts at once', async () => {
    // The embedded simulator reads these from kasa's journal index: not on every receipt (capability
    // 13), yet never stale — a new identity (or certificate) stored mid-run passes on its first receipt.
    const issued = [{ cashRegisterCode: TEST_REGISTER, ico: '44444444', icDph: `SK${TEST_DIC}` }];
    let identityReads = 0;
    let certificateReads = 0;
    const other = await startSfsHarness({
      issuedIdentities: () => {
        identityReads++;
        return issued;
      },
      issuedCertificates: () => {
        certificateReads++;
        return [];
      },
    });
    try {
      const make = (Ico: string, at?: Date) =>
        receiptRequest(other.merchant.signer, {
          number: String(++number),
          data: { Ico },
          ...(at ? { at } : {}),
        });
      const sendOther = (request: SfsReceiptRequest) =>
        other.client.registerReceipt(request, other.merchant.signer);
      expect((await sendOther(make('44444444'))).kind).toBe('accepted');
      const afterFirst = identityReads;
      expect(afterFirst).toBe(1);
      // Learnt from the accepted receipt: the same identity again is not looked up again.
      for (let n = 0; n < 3; n++) expect((await sendOther(make('44444444'))).kind).toBe('accepted');
      expect(identityReads).toBe(afterFirst);
      // Not issued (yet): refused, after reading the list.
      expect(codeOf(await sendOther(make('55555555')))).toBe(-905);
      expect(identityReads).toBe(afterFirst + 1);
      // Issued mid-run (a new merchant record in kasa's journal): honoured on the very next receipt.
      issued.push({ cashRegisterCode: TEST_REGISTER, ico: '55555555', icDph: `SK${TEST_DIC}` });
      expect((await sendOther(make('55555555'))).kind).toBe('accepted');
      // The certificate the PKP verified with covers CreateDate: no other certificate was needed.
      expect(certificateReads).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('−906 a paragón whose IssueDate is after its CreateDate', async () => {
    const paragon = () =>
      pd({ data: { Paragon: 'true', ParagonNumber: '3', IssueDate: formatSfsDateTime(hours(1)) } });
    await refusedOnlyBy('paragon-dates', -906, paragon);
  });

  it('−907 a RequestDate further ahead than the SFS lets document dates be (96 h, −103/−104)', async () => {
    const ahead = (by: number) => () => {
      const request = pd();
      return { ...request, header: { ...request.header, RequestDate: formatSfsDateTime(hours(by)) } };
    };
    // A register clock 2 h (or 95 h) fast is one the SFS accepts for IssueDate/CreateDate too.
    expect((await send(ahead(2)())).kind).toBe('accepted');
    expect((await send(ahead(95)())).kind).toBe('accepted');
    await refusedOnlyBy('request-date', -907, ahead(97));
  });

  it('−907 follows a tightened date tolerance, and requestDateAheadMs overrides it', async () => {
    const ahead = (request: SfsReceiptRequest, by: number): SfsReceiptRequest => ({
      ...request,
      header: { ...request.header, RequestDate: formatSfsDateTime(hours(by)) },
    });
    for (const options of [
      { dateRules: { futureToleranceMs: 3600_000 } },
      { careful: { requestDateAheadMs: 3600_000 } },
    ]) {
      const other = await startSfsHarness(options);
      try {
        const make = () => receiptRequest(other.merchant.signer, { number: String(++number) });
        const sendOther = (request: SfsReceiptRequest) =>
          other.client.registerReceipt(request, other.merchant.signer);
        expect(codeOf(await sendOther(ahead(make(), 2)))).toBe(-907);
        expect((await sendOther(ahead(make(), 0.5))).kind).toBe('accepted');
      } finally {
        await other.close();
      }
    }
  });

  it('−908 a PKP dated before the validity of its certificate', async () => {
    const late = testMerchant({ ca: h.merchant.ca, notBefore: hours(-1) });
    await refusedOnlyBy(
      'pkp-before-certificate',
      -908,
      () => pd({ at: hours(-2) }, late.signer),
      late.signer,
    );
  });

  it('−908 passes a PKP made with an earlier certificate renewed with the same key', async () => {
    // h.merchant's certificate (valid since 2019) is known from accepted receipts; the renewal has
    // the same key, so the PKP verifies with both — the earlier one covers CreateDate.
    const renewed = testMerchant({
      ca: h.merchant.ca,
      notBefore: hours(-1),
      privateKey: h.merchant.privateKey,
    });
    expect((await send(pd({ at: hours(-2) }, renewed.signer), renewed.signer)).kind).toBe('accepted');
  });

  it('−908 knows the certificates issued to a register (embedded: every certificate in the journal)', async () => {
    const other = await startSfsHarness();
    const earlier = other.merchant;
    const renewed = testMerchant({ ca: earlier.ca, notBefore: hours(-1), privateKey: earlier.privateKey });
    const withIssued = await startSfsHarness({
      caDir: earlier.ca.dir,
      issuedCertificates: () => [new X509Certificate(earlier.certPem).raw],
    });
    await other.close();
    try {
      const late = () => receiptRequest(renewed.signer, { number: String(++number), at: hours(-2) });
      // The simulator never saw the earlier certificate on a message: only the issued list knows it.
      expect(codeOf(await withIssued.client.registerReceipt(late(), renewed.signer))).toBe('accepted');
    } finally {
      await withIssued.close();
    }
  });

  it('switches over /__sim/careful and restores the started setting on reset', async () => {
    const base = h.sim.baseUrl;
    const post = (body: unknown) =>
      fetch(`${base}/__sim/careful`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const off = (await (await post({ 'amount-sum': false })).json()) as { checks: Record<string, boolean> };
    expect(off.checks['amount-sum']).toBe(false);
    expect(off.checks['vo-rate']).toBe(true);
    expect((await post({ 'no-such-check': false })).status).toBe(400);
    const second = await startSfsHarness({ careful: { checks: { 'vo-rate': false } } });
    try {
      second.sim.setCarefulChecks({ 'vo-rate': true });
      second.sim.reset();
      expect(second.sim.carefulChecks()['vo-rate']).toBe(false);
    } finally {
      await second.close();
    }
  });
});

describe('−105 and the exemption (Exception="true")', () => {
  const old = (exception: 'true' | 'false') => {
    const request = pd({ at: hours(-100) });
    return { ...request, header: { ...request.header, Exception: exception } };
  };

  it('refuses a first attempt older than 96 h without the exemption', async () => {
    expect(codeOf(await send(old('false')))).toBe(-105);
  });

  it('accepts it from an exempt register, which sends its data later', async () => {
    expect((await send(old('true'))).kind).toBe('accepted');
  });
});
