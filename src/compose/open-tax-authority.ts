import { X509Certificate } from 'node:crypto';
import { join } from 'node:path';
import { DEMO_CA_DIR } from '../adapters/merchant/test-merchant.js';
import { SoapTaxAuthority } from '../adapters/tax-authority/soap-tax-authority.js';
import { TrustStore } from '../adapters/tax-authority/trust-store.js';
import type { ServeConfig } from '../config/serve-config.js';
import { UsageError } from '../config/usage-error.js';
import type { Clock } from '../core/ports/clock.js';
import type { MerchantIdentityRow } from '../core/ports/merchant-index.js';
import type { TaxAuthority } from '../core/ports/tax-authority.js';
import { SfsHealth } from '../core/services/sfs-health.js';
import { SfsSimulator } from '../simulators/sfs/sfs-simulator.js';

/** The SFS side of `kasa serve`: the SOAP client and, by default, the embedded simulator. */
export interface SfsConnection {
  taxAuthority: TaxAuthority;
  health: SfsHealth;
  /** For the start-up line. */
  target: string;
  /** The embedded simulator when no `--sfs-url` is given (tests drive its faults). */
  simulator?: SfsSimulator;
  close(): Promise<void>;
}

/**
 * Without `--sfs-url` the SFS simulator runs in-process on a loopback port and the real SOAP
 * client talks to it over that socket; it trusts certificates of the demo CA in
 * `<data-dir>/demo-ca` (the demo merchant's), and kasa trusts only the simulator's signing
 * certificate. With
 * `--sfs-url`, responses are trusted only when signed by a certificate from `--sfs-trust`.
 */
export async function openTaxAuthority(
  config: ServeConfig,
  clock: Clock,
  merchantCertificate: () => string | undefined = () => undefined,
  identityHistory: () => MerchantIdentityRow[] = () => [],
  /** Where the embedded simulator's warnings go (e.g. its memory found unreadable and started empty). */
  warn: (line: string) => void = () => undefined,
): Promise<SfsConnection> {
  if (config.sfsUrl === undefined) {
    const caDir = join(config.dataDir, DEMO_CA_DIR);
    // Every identity record in the journal is identification data the SFS issued this register
    // (ADR 0422): a document stored under an earlier one and resent later carries it (check −905),
    // a PKP made with an earlier certificate verifies with it (check −908). The real SFS keeps this
    // history; the journal is where the embedded simulator reads it, so a restart loses nothing.
    // Read fresh on each call, never cached here: the checks ask only for a pair or a certificate
    // they have not learnt from accepted messages, so the steady state reads nothing (capability 13)
    // and a merchant record stored mid-run counts on its first receipt.
    const issuedIdentities = () =>
      identityHistory().map(({ cashRegisterCode, ico, icDph }) => ({ cashRegisterCode, ico, icDph }));
    const issuedCertificates = (cashRegisterCode: string) =>
      identityHistory()
        .filter((identity) => identity.cashRegisterCode === cashRegisterCode)
        .map((identity) => Buffer.from(identity.certificate, 'base64'));
    const simulator = await SfsSimulator.start({
      caDir,
      clock,
      issuedIdentities,
      issuedCertificates,
      log: warn,
    });
    const demoCa = new X509Certificate(simulator.caCertPem);
    const foreignCa = (der: string): string | undefined => {
      const cert = new X509Certificate(Buffer.from(der, 'base64'));
      if (cert.checkIssued(demoCa) && cert.verify(demoCa.publicKey)) return undefined;
      return `The embedded SFS simulator accepts only certificates of the demo CA in ${caDir}; the stored merchant's certificate is issued by "${cert.issuer.replace(/\n/g, ', ')}", so every document would be rejected (-13). Give --sfs-url and --sfs-trust for a real SFS, or make test merchants with: kasa merchant new --ca-dir ${caDir}`;
    };
    // The status probe asks on every request; the answer depends only on the certificate (the demo
    // CA is this connection's), so it is worked out again only when the stored certificate changes.
    let checked: { der: string; problem: string | undefined } | undefined;
    const health = new SfsHealth(`embedded simulator ${simulator.url}`, () => {
      const der = merchantCertificate();
      if (der === undefined) return undefined;
      if (checked?.der !== der) checked = { der, problem: foreignCa(der) };
      return checked.problem;
    });
    const taxAuthority = new SoapTaxAuthority({
      url: simulator.url,
      // Only the simulator's signing certificate: its CA also issues merchant certificates, which
      // must never pass for SFS answers.
      trust: TrustStore.fromPem(simulator.signingCertPem, 'embedded simulator signing certificate'),
      timeoutMs: config.sfsTimeoutMs,
      clock,
    });
    return {
      taxAuthority,
      health,
      target: `embedded simulator ${simulator.url}`,
      simulator,
      async close() {
        await taxAuthority.close();
        await simulator.close();
      },
    };
  }
  if (config.sfsTrust.length === 0) {
    throw new UsageError(
      `--sfs-url ${config.sfsUrl} needs --sfs-trust: a PEM file with the certificate (or its CA) that signs the SFS responses`,
    );
  }
  let trust: TrustStore;
  try {
    trust = TrustStore.fromFiles(config.sfsTrust);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const taxAuthority = new SoapTaxAuthority({
    url: config.sfsUrl,
    trust,
    timeoutMs: config.sfsTimeoutMs,
    clock,
  });
  return {
    taxAuthority,
    health: new SfsHealth(config.sfsUrl),
    target: config.sfsUrl,
    close: () => taxAuthority.close(),
  };
}
