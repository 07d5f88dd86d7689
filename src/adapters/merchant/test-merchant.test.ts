import { execFileSync, spawnSync } from 'node:child_process';
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import forge from 'node-forge';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasOfficialFixtures, official, SHARED_MISSING } from '../../../test/support/shared-fixtures.js';
import { FiscalError } from '../../core/fiscal-error.js';
import {
  checkCertificateMatchesIdentity,
  checkCertificateProfile,
  checkCertificateValidity,
} from '../../core/merchant/certificate-rules.js';
import { Pkcs12MerchantKeystore } from './pkcs12-merchant-keystore.js';
import { inlinePkcs12Read } from './pkcs12-worker-reader.js';
import { writePkcs12 } from './pkcs12-writer.js';
import { SealedSecretStore } from './sealed-secret-store.js';
import { createTestMerchant, type TestMerchant, writeTestMerchant } from './test-merchant.js';

const hasTool = (tool: string, arg: string) => spawnSync(tool, [arg], { stdio: 'ignore' }).status === 0;
const hasXmllint = hasTool('xmllint', '--version');
const hasOpenssl = hasTool('openssl', 'version');

let tmp: string;
let caDir: string;
let standard: TestMerchant;
let portable: TestMerchant;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'kasa-tm-'));
  caDir = join(tmp, 'ca');
  standard = createTestMerchant({ caDir, password: 'Heslo-Standard-1' });
  portable = createTestMerchant({
    caDir,
    password: 'Heslo-Portable-2',
    type: 'PORTABLE',
    dic: '2021000014',
    vatPayer: false,
    validDays: 20,
    name: 'Ján & syn <test>',
  });
});

function keystore(): Pkcs12MerchantKeystore {
  return new Pkcs12MerchantKeystore(
    new SealedSecretStore(join(mkdtempSync(join(tmp, 's-')), 'secrets')),
    inlinePkcs12Read,
  );
}

async function codeOf(fn: () => unknown): Promise<string> {
  try {
    await fn();
    return 'none';
  } catch (e) {
    if (e instanceof FiscalError) return e.resultName;
    throw e;
  }
}

describe('test merchants', () => {
  it('use the SFS defaults: register code 888<DIČ>0001, alias = register code, STANDARD, VAT payer', async () => {
    expect(standard.dic).toBe('2021000003');
    expect(standard.registerCode).toBe('88820210000030001');
    const ks = keystore();
    const id = ks.readIdentity(standard.identityXml);
    expect(id).toMatchObject({
      dic: '2021000003',
      icDph: 'SK2021000003',
      organizationUnit: { cashRegisterCode: '88820210000030001', cashRegisterType: 'STANDARD' },
    });
    const opened = await ks.open(standard.authXml, 'Heslo-Standard-1', 'Heslo-Standard-1');
    expect(opened.alias).toBe('88820210000030001');
    checkCertificateProfile(opened.certificate, opened.keyMatchesCertificate);
    checkCertificateMatchesIdentity(id, opened.certificate);
    checkCertificateValidity(opened.certificate, new Date());
    expect(opened.certificate.subject.map((a) => `${a.name}=${a.value}`)).toEqual([
      'CN=VATSK-2021000003 POKLADNICA 88820210000030001',
      'OU=88820210000030001',
      'organizationIdentifier=VATSK-2021000003',
      'C=SK',
    ]);
    const leaf = new X509Certificate(opened.certificate.der);
    const ca = new X509Certificate(readFileSync(join(caDir, 'ca-cert.pem')));
    expect(leaf.verify(ca.publicKey)).toBe(true);
    expect(Math.round((opened.certificate.notAfter.getTime() - Date.now()) / 86_400_000)).toBe(730);
  });

  it('honour the options (PORTABLE, no VAT, DIČ, validity, escaped name)', () => {
    const id = keystore().readIdentity(portable.identityXml);
    expect(id.icDph).toBeUndefined();
    expect(id.corporateBodyFullName).toBe('Ján & syn <test>');
    expect(id.organizationUnit).toMatchObject({
      cashRegisterType: 'PORTABLE',
      cashRegisterCode: '88820210000140001',
    });
    expect(id.organizationUnit.physicalAddress).toBeUndefined();
    expect(Math.round((portable.notAfter.getTime() - Date.now()) / 86_400_000)).toBe(20);
  });

  it('refuse bad option values', () => {
    expect(() => createTestMerchant({ caDir, password: 'x', dic: '123' })).toThrow(/--dic/);
    expect(() => createTestMerchant({ caDir, password: '' })).toThrow(/--password/);
    expect(() => createTestMerchant({ caDir, password: 'x', validDays: 0 })).toThrow(/--valid-days/);
  });

  it('are written as register_auth_data.xml and register_ident_data.xml', () => {
    const out = join(tmp, 'out');
    const { authPath, identityPath } = writeTestMerchant(out, standard);
    expect(authPath).toBe(join(out, 'register_auth_data.xml'));
    expect(readFileSync(identityPath, 'utf8')).toBe(standard.identityXml);
    expect(statSync(authPath).mode & 0o777).toBe(0o600);
  });

  it.skipIf(!hasOfficialFixtures || !hasXmllint)(
    `validate against the official XSDs with xmllint (${hasOfficialFixtures ? 'skipped only without xmllint' : SHARED_MISSING})`,
    () => {
      const dir = mkdtempSync(join(tmp, 'xsd-'));
      const cases: Array<[string, string, string]> = [
        ['s-auth.xml', standard.authXml, 'autentifikacneUdaje_v2.0_20190117.xsd'],
        ['s-ident.xml', standard.identityXml, 'identifikacneUdaje_v2.0_20190117.xsd'],
        ['p-auth.xml', portable.authXml, 'autentifikacneUdaje_v2.0_20190117.xsd'],
        ['p-ident.xml', portable.identityXml, 'identifikacneUdaje_v2.0_20190117.xsd'],
      ];
      for (const [name, xml, xsd] of cases) {
        writeFileSync(join(dir, name), xml);
        const run = spawnSync('xmllint', ['--noout', '--schema', official('xsd', xsd), join(dir, name)], {
          encoding: 'utf8',
        });
        expect(run.stderr).toContain('validates');
        expect(run.status).toBe(0);
      }
    },
  );

  it.skipIf(!hasOpenssl)(
    'have the SFS keystore layout: RC2-40 certificate bag, 3DES key bag, SHA-1 MAC, 1024 iterations',
    () => {
      const p12 = join(tmp, 'standard.p12');
      const data = /<eu:Data>([^<]*)</.exec(standard.authXml)![1]!;
      writeFileSync(p12, Buffer.from(data, 'base64'));
      const run = spawnSync(
        'openssl',
        ['pkcs12', '-info', '-legacy', '-noout', '-in', p12, '-passin', 'pass:Heslo-Standard-1'],
        {
          encoding: 'utf8',
        },
      );
      expect(run.status).toBe(0);
      const info = run.stdout + run.stderr;
      expect(info).toContain('MAC: sha1, Iteration 1024');
      expect(info).toContain('PKCS7 Encrypted data: pbeWithSHA1And40BitRC2-CBC, Iteration 1024');
      expect(info).toContain('Shrouded Keybag: pbeWithSHA1And3-KeyTripleDES-CBC, Iteration 1024');
      const names = execFileSync(
        'openssl',
        ['pkcs12', '-legacy', '-nokeys', '-in', p12, '-passin', 'pass:Heslo-Standard-1'],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
      );
      expect(names).toContain('friendlyName: 88820210000030001');
    },
  );
});

describe('keystore entry rules (generated keystores)', () => {
  const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
  const certDer = (m: TestMerchant) => new X509Certificate(m.certificatePem).raw;
  const wrap = (data: Uint8Array, alias: string) =>
    `<AuthData xmlns="http://financnasprava.sk/ekasa/udaje/schema/v2"><KeyStoreType>PKCS12</KeyStoreType><Data>${Buffer.from(data).toString('base64')}</Data><CertificateAlias>${alias}</CertificateAlias></AuthData>`;

  it('a separate private key password is honoured (keystore password for integrity and certificates)', async () => {
    const key = pair().privateKey.export({ type: 'pkcs8', format: 'der' });
    const p12 = writePkcs12({
      alias: 'a1',
      keyPkcs8Der: key,
      certificatesDer: [certDer(standard)],
      keyStorePassword: 'store-pw',
      privateKeyPassword: 'key-pw',
    });
    const xml = wrap(p12, 'a1');
    const opened = await keystore().open(xml, 'store-pw', 'key-pw');
    expect(opened.keyMatchesCertificate).toBe(false); // a fresh key under the standard merchant's certificate
    expect(
      await codeOf(() => checkCertificateProfile(opened.certificate, opened.keyMatchesCertificate)),
    ).toBe('MERCHANT_CERTIFICATE_ERROR');
    expect(await codeOf(() => keystore().open(xml, 'store-pw', 'store-pw'))).toBe(
      'MERCHANT_WRONG_PASSWORD_OR_CORRUPTED_FILE',
    );
    expect(await codeOf(() => keystore().open(xml, 'key-pw', 'key-pw'))).toBe(
      'MERCHANT_WRONG_PASSWORD_OR_CORRUPTED_FILE',
    );
  });

  it('an alias that is not in the keystore gives 402', async () => {
    const xml = standard.authXml.replace(
      '<eu:CertificateAlias>88820210000030001<',
      '<eu:CertificateAlias>other<',
    );
    expect(await codeOf(() => keystore().open(xml, 'Heslo-Standard-1', 'Heslo-Standard-1'))).toBe(
      'MERCHANT_CERTIFICATE_ERROR',
    );
  });

  it('Base64 of something that is not a keystore gives 403', async () => {
    const xml = wrap(new TextEncoder().encode('definitely not a keystore'), 'x');
    expect(await codeOf(() => keystore().open(xml, 'a', 'a'))).toBe(
      'MERCHANT_WRONG_PASSWORD_OR_CORRUPTED_FILE',
    );
  });
});

describe('keystore limits', () => {
  it('refuses a keystore asking for more key-derivation iterations than the register will run (403)', async () => {
    // Re-encode the standard keystore with its MAC iteration count raised to 1,048,575.
    const data = /<eu:Data>([^<]*)</.exec(standard.authXml)![1]!;
    const pfx = forge.asn1.fromDer(forge.util.decode64(data));
    const macData = (pfx.value as forge.asn1.Asn1[])[2]!;
    (macData.value as forge.asn1.Asn1[])[2]!.value = forge.asn1.integerToDer(0xfffff).getBytes();
    const patched = forge.util.encode64(forge.asn1.toDer(pfx).getBytes());
    const xml = standard.authXml.replace(data, patched);
    try {
      await keystore().open(xml, 'Heslo-Standard-1', 'Heslo-Standard-1');
      expect.unreachable();
    } catch (e) {
      expect(FiscalError.is(e, 'MERCHANT_WRONG_PASSWORD_OR_CORRUPTED_FILE')).toBe(true);
      expect((e as FiscalError).details?.keystoreProblem).toBe('over-limits');
    }
  });
});
