import { afterAll, beforeAll, expect, it } from 'vitest';
import { testMerchant } from '../../../test/support/merchant-keys.js';
import { ManualClock } from '../../../test/support/merchant-register.js';
import { type SfsHarness, startSfsHarness } from '../../../test/support/sfs-harness.js';
import { receiptRequest } from '../../../test/support/sfs-requests.js';
import type { SfsOutcome } from '../../core/ports/tax-authority.js';

/**
 * Spec §2.1/§2.4: PKP and XML signature use the same key, except for a message sent later after
 * the PKP's certificate expired. A renewal (new certificate while the old one is still valid)
 * therefore does not let a PKP of the old key pass under the new signature.
 */
const start = new Date();
const days = (n: number) => new Date(start.getTime() + n * 86400_000);
const clock = new ManualClock(start);
let h: SfsHarness;
beforeAll(async () => {
  h = await startSfsHarness({ clock });
});
afterAll(async () => h.close());

const codeOf = (o: SfsOutcome) => (o.kind === 'rejected' || o.kind === 'duplicate' ? o.code : o.kind);

it('accepts a PKP of an earlier certificate only once that certificate has expired', async () => {
  const old = testMerchant({ ca: h.merchant.ca, notAfter: days(10) });
  const renewed = testMerchant({ ca: h.merchant.ca, notAfter: days(730) });
  expect((await h.client.registerReceipt(receiptRequest(old.signer, { number: '1' }), old.signer)).kind).toBe(
    'accepted',
  );

  // made (PKP) with the old key, sent later signed with the renewed certificate
  const later = receiptRequest(old.signer, { number: '2', sendingCount: 2 });
  expect(codeOf(await h.client.registerReceipt(later, renewed.signer))).toBe(-100);

  clock.current = days(11); // the old certificate has expired now
  expect(
    (
      await h.client.registerReceipt(
        { ...later, header: { ...later.header, SendingCount: '3' } },
        renewed.signer,
      )
    ).kind,
  ).toBe('accepted');
});
