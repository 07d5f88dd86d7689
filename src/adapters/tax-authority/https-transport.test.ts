import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SfsHarness, startSfsHarness } from '../../../test/support/sfs-harness.js';
import { receiptRequest } from '../../../test/support/sfs-requests.js';
import { loopbackTlsCertificate } from '../../../test/support/tls-cert.js';
import { SoapTaxAuthority } from './soap-tax-authority.js';
import { TrustStore } from './trust-store.js';

describe('SoapTaxAuthority over HTTPS', () => {
  const tls = loopbackTlsCertificate();
  let h: SfsHarness;
  beforeAll(async () => {
    h = await startSfsHarness({ tls });
  });
  afterAll(async () => h.close());

  it('registers when the server certificate is trusted for TLS', async () => {
    expect(h.sim.url.startsWith('https://127.0.0.1:')).toBe(true);
    const client = new SoapTaxAuthority({
      url: h.sim.url,
      trust: TrustStore.fromPem(h.sim.caCertPem),
      http: { ca: tls.cert },
    });
    const outcome = await client.registerReceipt(receiptRequest(h.merchant.signer), h.merchant.signer);
    expect(outcome.kind).toBe('accepted');
  });

  it('is unreachable when the TLS server certificate is not trusted', async () => {
    const client = new SoapTaxAuthority({ url: h.sim.url, trust: TrustStore.fromPem(h.sim.caCertPem) });
    const outcome = await client.registerReceipt(
      receiptRequest(h.merchant.signer, { number: '2' }),
      h.merchant.signer,
    );
    expect(outcome).toMatchObject({ kind: 'unreachable', timedOut: false });
  });
});
