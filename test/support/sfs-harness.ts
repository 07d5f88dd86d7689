import { HttpSoapTransport } from '../../src/adapters/tax-authority/http-transport.js';
import {
  SoapTaxAuthority,
  type SoapTaxAuthorityOptions,
} from '../../src/adapters/tax-authority/soap-tax-authority.js';
import { TrustStore } from '../../src/adapters/tax-authority/trust-store.js';
import { SfsSimulator, type SfsSimulatorOptions } from '../../src/simulators/sfs/sfs-simulator.js';
import { type TestMerchant, testMerchant } from './merchant-keys.js';

export interface SfsHarness {
  merchant: TestMerchant;
  sim: SfsSimulator;
  client: SoapTaxAuthority;
  /** A client whose every signed message goes through `mutate` before it is posted. */
  clientWith(mutate: (xml: string) => string, options?: Partial<SoapTaxAuthorityOptions>): SoapTaxAuthority;
  close(): Promise<void>;
}

/** A simulator on a loopback port with its own test CA, a merchant of that CA, and a client trusting it. */
export async function startSfsHarness(options: Partial<SfsSimulatorOptions> = {}): Promise<SfsHarness> {
  const merchant = testMerchant();
  const sim = await SfsSimulator.start({ caDir: merchant.ca.dir, ...options });
  const trust = TrustStore.fromPem(sim.caCertPem);
  const clients: SoapTaxAuthority[] = [];
  const make = (extra: Partial<SoapTaxAuthorityOptions> = {}) => {
    const client = new SoapTaxAuthority({ url: sim.url, trust, ...extra });
    clients.push(client);
    return client;
  };
  return {
    merchant,
    sim,
    client: make(),
    clientWith(mutate, extra = {}) {
      const inner = new HttpSoapTransport();
      return make({
        ...extra,
        transport: { post: (url, body, signal) => inner.post(url, mutate(body), signal) },
      });
    },
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await sim.close();
    },
  };
}
