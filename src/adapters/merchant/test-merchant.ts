import { generateKeyPairSync, randomBytes, X509Certificate } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CashRegisterType } from '../../core/merchant/identity-data.js';
import { UDAJE_NS } from '../../core/merchant/xml-tree.js';
import { openTestCa } from '../pki/test-ca.js';
import { writePkcs12 } from './pkcs12-writer.js';

/**
 * Test merchants in the official file formats: identification data (`IdentityData`) and
 * authentication data (`AuthData` with a PKCS#12 laid out like the SFS issues it), the certificate
 * issued by a test CA with the eKasa merchant profile (SFS "Popis identifikačných a
 * autentifikačných údajov" v2.1/v2.2 §3.3). Used by `kasa merchant new`, demo mode and tests.
 */
export interface TestMerchantOptions {
  /** The test CA folder (created on first use). */
  caDir: string;
  /** Keystore (and private key) password. */
  password: string;
  type?: CashRegisterType;
  dic?: string;
  /**
   * Default `888<DIČ>0001`: the pattern of the codes the SFS assigns, `888`, the DIČ and a 4-digit
   * sequence (a real production code in NineDigit's public test, GitHub `ninedigit/ekasa-clientphp`,
   * `tests/HttpClientTest.php`; the authentication data file names on vendors' public help pages,
   * e.g. exalogic.sk/help/oberon/Devices_Identification_AuthenticationData.html).
   */
  registerCode?: string;
  /** A VAT payer gets `IcDph` = `SK<DIČ>`. Default true. */
  vatPayer?: boolean;
  /** Certificate validity from now, days. Default 730 (SFS authentication data last 2 years). */
  validDays?: number;
  /** `CorporateBodyFullName`. */
  name?: string;
  ico?: string;
  now?: Date;
}

export interface TestMerchant {
  identityXml: string;
  authXml: string;
  dic: string;
  registerCode: string;
  certificatePem: string;
  notAfter: Date;
}

/** A DIČ of the legal-person shape (10 digits, `20…`, divisible by 11). */
export const DEFAULT_TEST_DIC = '2021000003';
/** An IČO with a valid mod-11 check digit. */
export const DEFAULT_TEST_ICO = '10000003';
export const DEFAULT_TEST_NAME = 'kasa test merchant s.r.o.';
export const AUTH_FILE = 'register_auth_data.xml';
export const IDENTITY_FILE = 'register_ident_data.xml';

/** Checks the option values; returns the broken one as `[flag, rule]`, or undefined. */
export function testMerchantProblem(o: Omit<TestMerchantOptions, 'caDir'>): [string, string] | undefined {
  if (o.password.length === 0) return ['--password', 'must not be empty'];
  if (o.dic !== undefined && !/^[0-9]{10}$/.test(o.dic)) return ['--dic', 'must be 10 digits'];
  if (o.registerCode !== undefined && !/^[0-9]{16,17}$/.test(o.registerCode)) {
    return ['--register-code', 'must be 16 or 17 digits'];
  }
  if (o.ico !== undefined && !/^[0-9]{8}$/.test(o.ico)) return ['--ico', 'must be 8 digits'];
  if (
    o.validDays !== undefined &&
    !(Number.isInteger(o.validDays) && o.validDays >= 1 && o.validDays <= 3650)
  ) {
    return ['--valid-days', 'must be a whole number of days from 1 to 3650'];
  }
  if (o.name !== undefined && (o.name.length < 1 || [...o.name].length > 1024)) {
    return ['--name', 'must be 1 to 1024 characters'];
  }
  return undefined;
}

/** Generates a key, has the test CA issue its certificate and returns both files as text. */
export function createTestMerchant(options: TestMerchantOptions): TestMerchant {
  const problem = testMerchantProblem(options);
  if (problem) throw new RangeError(`${problem[0]} ${problem[1]}`);
  const now = options.now ?? new Date();
  const dic = options.dic ?? DEFAULT_TEST_DIC;
  const registerCode = options.registerCode ?? `888${dic}0001`;
  const type = options.type ?? 'STANDARD';
  const ca = openTestCa(options.caDir, now);

  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const notBefore = new Date(now.getTime() - 60_000);
  const notAfter = new Date(now.getTime() + (options.validDays ?? 730) * 86_400_000);
  const certificatePem = ca.issue({
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    // SFS merchant certificate subject (SFS "Popis identifikačných a autentifikačných údajov"
    // §3.3), in the I.CA order.
    subject: [
      { shortName: 'CN', value: `VATSK-${dic} POKLADNICA ${registerCode}` },
      { shortName: 'OU', value: registerCode },
      { type: '2.5.4.97', value: `VATSK-${dic}` },
      { shortName: 'C', value: 'SK' },
    ],
    notBefore,
    notAfter,
    clientAuth: true,
  });
  const keyStore = writePkcs12({
    alias: registerCode,
    keyPkcs8Der: privateKey.export({ type: 'pkcs8', format: 'der' }),
    certificatesDer: [new X509Certificate(certificatePem).raw],
    keyStorePassword: options.password,
  });
  return {
    identityXml: identityXml({
      dic,
      ico: options.ico ?? DEFAULT_TEST_ICO,
      vatPayer: options.vatPayer ?? true,
      name: options.name ?? DEFAULT_TEST_NAME,
      registerCode,
      type,
    }),
    authXml: authXml(Buffer.from(keyStore).toString('base64'), registerCode),
    dic,
    registerCode,
    certificatePem,
    notAfter,
  };
}

/** Writes {@link AUTH_FILE} and {@link IDENTITY_FILE} into `outDir` (created when missing). */
export function writeTestMerchant(
  outDir: string,
  merchant: TestMerchant,
): { authPath: string; identityPath: string } {
  mkdirSync(outDir, { recursive: true });
  const authPath = join(outDir, AUTH_FILE);
  const identityPath = join(outDir, IDENTITY_FILE);
  // The keystore is password-protected, but keep the file private like the SFS download.
  writeFileSync(authPath, merchant.authXml, { mode: 0o600 });
  writeFileSync(identityPath, merchant.identityXml);
  return { authPath, identityPath };
}

/** A random password for a keystore nobody types (demo mode). */
export function randomPassword(): string {
  return randomBytes(18).toString('base64url');
}

function authXml(data: string, alias: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<eu:AuthData xmlns:eu="${UDAJE_NS}">
   <eu:KeyStoreType>PKCS12</eu:KeyStoreType>
   <eu:Data>${data}</eu:Data>
   <eu:CertificateAlias>${escapeXml(alias)}</eu:CertificateAlias>
</eu:AuthData>
`;
}

const ADDRESS = `<eu:Country>Slovenská republika</eu:Country>
		<eu:Municipality>Bratislava</eu:Municipality>
		<eu:StreetName>Testovacia</eu:StreetName>
		<eu:BuildingNumber>1</eu:BuildingNumber>
		<eu:PropertyRegistrationNumber>1234</eu:PropertyRegistrationNumber>
		<eu:DeliveryAddress>
			<eu:PostalCode>81101</eu:PostalCode>
		</eu:DeliveryAddress>`;

function identityXml(o: {
  dic: string;
  ico: string;
  vatPayer: boolean;
  name: string;
  registerCode: string;
  type: CashRegisterType;
}): string {
  // Same element order and layout as the SFS sample files (identifikacneUdaje v2.0).
  const ouAddress =
    o.type === 'STANDARD'
      ? `
		<eu:PhysicalAddress>
		${ADDRESS.replaceAll('\n', '\n\t')}
		</eu:PhysicalAddress>`
      : '';
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<eu:IdentityData xmlns:eu="${UDAJE_NS}">
	<eu:Dic>${o.dic}</eu:Dic>
	<eu:Ico>${o.ico}</eu:Ico>${o.vatPayer ? `\n\t<eu:IcDph>SK${o.dic}</eu:IcDph>` : ''}
	<eu:CorporateBodyFullName>${escapeXml(o.name)}</eu:CorporateBodyFullName>
	<eu:OrganizationUnit>
		<eu:OrganizationUnitName>Testovacia prevádzka</eu:OrganizationUnitName>${ouAddress}
		<eu:CashRegisterCode>${o.registerCode}</eu:CashRegisterCode>
		<eu:CashRegisterType>${o.type}</eu:CashRegisterType>
	</eu:OrganizationUnit>
	<eu:PhysicalAddress>
		${ADDRESS}
	</eu:PhysicalAddress>
</eu:IdentityData>
`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Folder of the demo CA inside the data dir; the embedded SFS simulator trusts it in demo mode. */
export const DEMO_CA_DIR = 'demo-ca';

/**
 * The files of a demo merchant for `ensureDemoMerchant`: the CA in `<data-dir>/demo-ca` (created
 * on first use), a random keystore password that nobody needs to type (the store seals it).
 */
export function demoMerchantFiles(
  dataDir: string,
  now: Date = new Date(),
): { identityXml: string; authXml: string; password: string } {
  const password = randomPassword();
  const merchant = createTestMerchant({
    caDir: join(dataDir, DEMO_CA_DIR),
    password,
    name: 'kasa DEMO merchant (not fiscal)',
    now,
  });
  return { identityXml: merchant.identityXml, authXml: merchant.authXml, password };
}
