import { verify, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasOfficialFixtures, official, SHARED_MISSING } from '../../../test/support/shared-fixtures.js';
import { FiscalError } from '../../core/fiscal-error.js';
import {
  checkCertificateMatchesIdentity,
  checkCertificateProfile,
  checkCertificateValidity,
} from '../../core/merchant/certificate-rules.js';
import type { ResultName } from '../../core/result-codes.js';
import { Pkcs12MerchantKeystore } from './pkcs12-merchant-keystore.js';
import { inlinePkcs12Read } from './pkcs12-worker-reader.js';
import { SealedSecretStore } from './sealed-secret-store.js';

/** Published passwords of the official SFS authentication data (fixtures README). */
const OFFICIAL_AUTH = [
  { file: 'disig_valid_until_20261115.xml', password: '88812345678900001', notAfter: '2026-11-15' },
  { file: 'disig_2021.xml', password: 'Heslo123', notAfter: '2023-03-16' },
  { file: 'disig_expired_2021.xml', password: 'Heslo123', notAfter: '2021-03-16' },
  { file: 'ica_2019.xml', password: 'Heslo123', notAfter: '2021-01-29' },
  { file: 'invalid_2019.xml', password: 'Heslo123', notAfter: '2019-02-06' },
] as const;

const IDENTITY = 'Identifikacne_udaje_standardna_platitel_DPH_v2.0_20190327.xml';
const WRONG_IDENTITY = 'Nekorektne_identifikacne_udaje_v2.0_20190327.xml';

/** Parsing on the test's thread (`inline`), or as `kasa serve` does it, in a worker. */
function keystore(reader: 'inline' | 'worker' = 'inline'): Pkcs12MerchantKeystore {
  const secrets = new SealedSecretStore(join(mkdtempSync(join(tmpdir(), 'kasa-sec-')), 'secrets'));
  return reader === 'worker'
    ? new Pkcs12MerchantKeystore(secrets)
    : new Pkcs12MerchantKeystore(secrets, inlinePkcs12Read);
}

function readOfficial(...parts: string[]): string {
  return readFileSync(official(...parts), 'utf8');
}

async function codeOf(fn: () => unknown): Promise<ResultName | 'none'> {
  try {
    await fn();
    return 'none';
  } catch (e) {
    if (e instanceof FiscalError) return e.resultName;
    throw e;
  }
}

describe.skipIf(!hasOfficialFixtures)(
  `official SFS authentication data (${hasOfficialFixtures ? 'present' : SHARED_MISSING})`,
  () => {
    it.each(OFFICIAL_AUTH)(
      '$file opens with its published password (in the worker, as kasa serve reads it), matches the identity and ends in 405',
      async ({ file, password, notAfter }) => {
        const ks = keystore('worker');
        const identity = ks.readIdentity(readOfficial('identity-data', IDENTITY));
        const opened = await ks.open(readOfficial('auth-data', file), password, password);
        expect(opened.alias).toBe('88812345678900001');
        expect(opened.keyMatchesCertificate).toBe(true);
        expect(opened.certificate.notAfter.toISOString().slice(0, 10)).toBe(notAfter);
        checkCertificateProfile(opened.certificate, opened.keyMatchesCertificate);
        checkCertificateMatchesIdentity(identity, opened.certificate);
        expect(await codeOf(() => checkCertificateValidity(opened.certificate, new Date()))).toBe(
          'MERCHANT_CERTIFICATE_EXPIRED',
        );
        // The KeyObject signs and the certificate's public key verifies (RSASSA-PKCS1-v1_5 SHA-256).
        const data = new TextEncoder().encode(
          '1234567890|88812345678900001|VK|1|2019-01-31T12:01:14+01:00|100.00',
        );
        const signature = opened.signer.sign(data);
        expect(signature.length).toBe(256);
        const publicKey = new X509Certificate(opened.certificate.der).publicKey;
        expect(verify('sha256', data, publicKey, signature)).toBe(true);
      },
    );

    it('a wrong password gives 403 for every official file', async () => {
      const ks = keystore();
      for (const { file } of OFFICIAL_AUTH) {
        expect(await codeOf(() => ks.open(readOfficial('auth-data', file), 'wrong', 'wrong'))).toBe(
          'MERCHANT_WRONG_PASSWORD_OR_CORRUPTED_FILE',
        );
      }
    });

    it('says which keystore problem it is (details.keystoreProblem)', async () => {
      const xml = readOfficial('auth-data', 'disig_2021.xml');
      const problem = async (fn: () => unknown) => {
        try {
          await fn();
        } catch (e) {
          return (e as FiscalError).details?.keystoreProblem;
        }
        return 'none';
      };
      expect(await problem(() => keystore().open(xml, 'heslo123', 'heslo123'))).toBe('wrong-password');
      const data = /<eu:Data>([^<]*)<\/eu:Data>/.exec(xml)![1]!;
      expect(
        await problem(() => keystore().open(xml.replace(data, data.slice(0, 2000)), 'Heslo123', 'Heslo123')),
      ).toBe('damaged');
    });

    it('a right keystore password with a wrong private key password gives 403', async () => {
      const xml = readOfficial('auth-data', 'disig_2021.xml');
      expect(await codeOf(() => keystore().open(xml, 'Heslo123', 'other'))).toBe(
        'MERCHANT_WRONG_PASSWORD_OR_CORRUPTED_FILE',
      );
    });

    it('a truncated Base64 gives 403 or 404', async () => {
      const xml = readOfficial('auth-data', 'disig_2021.xml');
      const data = /<eu:Data>([^<]*)<\/eu:Data>/.exec(xml)![1]!;
      const cuts = [data.length - 1, data.length - 4, Math.floor(data.length / 2), 8];
      for (let keep = 400; keep < data.length; keep += 400) cuts.push(keep, keep + 1);
      for (const keep of cuts) {
        const cut = xml.replace(data, data.slice(0, keep));
        const code = await codeOf(() => keystore().open(cut, 'Heslo123', 'Heslo123'));
        expect(['MERCHANT_WRONG_PASSWORD_OR_CORRUPTED_FILE', 'MERCHANT_PARSE_ERROR']).toContain(code);
      }
      // A cut on a 4-character boundary is valid Base64 but a damaged keystore: 403.
      const cut4 = xml.replace(data, data.slice(0, data.length - 400));
      expect(await codeOf(() => keystore().open(cut4, 'Heslo123', 'Heslo123'))).toBe(
        'MERCHANT_WRONG_PASSWORD_OR_CORRUPTED_FILE',
      );
    });

    it('the incorrect identification file is valid XSD but gives 400 naming the field against the certificate', async () => {
      const ks = keystore();
      const identity = ks.readIdentity(readOfficial('identity-data', WRONG_IDENTITY));
      const opened = await ks.open(readOfficial('auth-data', 'disig_2021.xml'), 'Heslo123', 'Heslo123');
      try {
        checkCertificateMatchesIdentity(identity, opened.certificate);
        expect.unreachable();
      } catch (e) {
        expect(FiscalError.is(e, 'MERCHANT_WRONG_FORMAT')).toBe(true);
        expect((e as FiscalError).details?.field).toBe('IdentityData/Dic');
      }
    });

    it('reads every official identification file', () => {
      const ks = keystore();
      for (const name of [
        'Identifikacne_udaje_prenosna_nie_platitel_DPH_v2.0_20190327.xml',
        'Identifikacne_udaje_prenosna_platitel_DPH_v2.0_20190327.xml',
        'Identifikacne_udaje_standardna_nie_platitel_DPH_v2.0_20190327.xml',
        IDENTITY,
      ]) {
        const id = ks.readIdentity(readOfficial('identity-data', name));
        expect(id.dic).toBe('1234567890');
        expect(id.organizationUnit.cashRegisterCode).toBe('88812345678900001');
        expect(id.physicalAddress.municipality).toBe('Štrkovec');
        expect(id.physicalAddress.postalCode).toBe('98045');
        expect(id.icDph === undefined).toBe(name.includes('nie_platitel'));
      }
    });

    it('reads the I.CA issuer name with its Czech letters and the organizationIdentifier', async () => {
      const opened = await keystore().open(readOfficial('auth-data', 'ica_2019.xml'), 'Heslo123', 'Heslo123');
      const issuerO = opened.certificate.issuer.find((a) => a.name === 'O')?.value;
      expect(issuerO).toBe('První certifikační autorita, a.s.');
      expect(opened.certificate.subject.find((a) => a.oid === '2.5.4.97')?.value).toBe('VATSK-1234567890');
      expect(opened.certificate.subject.find((a) => a.name === 'OU')?.value).toBe('88812345678900001');
    });
  },
);
