import { createHmac, timingSafeEqual } from 'node:crypto';
import forge from 'node-forge';
import { FiscalError } from '../../core/fiscal-error.js';
import { DEFAULT_PKCS12_LIMITS, KeystoreOverLimits, type Pkcs12Limits, WorkBudget } from './pkcs12-limits.js';

/**
 * Reads a PKCS#12 keystore (RFC 7292) as the SFS issues them: certificate bags encrypted with
 * pbeWithSHAAnd40BitRC2-CBC, the key in a pkcs8ShroudedKeyBag with pbeWithSHAAnd3-KeyTripleDES-CBC,
 * HMAC-SHA1 integrity (so are the SFS's public test authentication data for the integration
 * environment, published in GitHub `datapacsro/oec`, `auth_id/`). OpenSSL 3 refuses RC2-40 without
 * its legacy provider, so the PBE ciphers come from node-forge; the walk over the structure is ours
 * because forge's own reader takes one password for everything, while the API has a keystore
 * password (integrity + certificate bags) and a private key password (key bags).
 *
 * Every failure is FiscalError 403 MERCHANT_WRONG_PASSWORD_OR_CORRUPTED_FILE: a MAC that does not
 * verify (wrong keystore password), a key that does not decrypt (wrong key password), bytes that
 * are not a PKCS#12 at all (truncated, damaged), or a keystore asking for more work than
 * {@link Pkcs12Limits} allow — checked on the structure before any key derivation runs (ADR 0602).
 * Messages never contain a password.
 */
export interface Pkcs12Contents {
  keys: Array<BagAttributes & { pkcs8Der: Uint8Array }>;
  certificates: Array<BagAttributes & { der: Uint8Array }>;
}

export interface BagAttributes {
  friendlyName?: string;
  /** localKeyId, hex. */
  localKeyId?: string;
}

const OIDS = {
  data: '1.2.840.113549.1.7.1',
  encryptedData: '1.2.840.113549.1.7.6',
  keyBag: '1.2.840.113549.1.12.10.1.1',
  shroudedKeyBag: '1.2.840.113549.1.12.10.1.2',
  certBag: '1.2.840.113549.1.12.10.1.3',
  x509Certificate: '1.2.840.113549.1.9.22.1',
  friendlyName: '1.2.840.113549.1.9.20',
  localKeyId: '1.2.840.113549.1.9.21',
} as const;

const MAC_DIGESTS: Record<string, { name: string; bytes: number; md: () => forge.md.MessageDigest }> = {
  '1.3.14.3.2.26': { name: 'sha1', bytes: 20, md: () => forge.md.sha1.create() },
  '2.16.840.1.101.3.4.2.1': { name: 'sha256', bytes: 32, md: () => forge.md.sha256.create() },
  '2.16.840.1.101.3.4.2.2': { name: 'sha384', bytes: 48, md: () => forge.md.sha384.create() },
  '2.16.840.1.101.3.4.2.3': { name: 'sha512', bytes: 64, md: () => forge.md.sha512.create() },
};

type Asn1 = forge.asn1.Asn1;
const { asn1 } = forge;

interface PbeCipher {
  update(input: forge.util.ByteBuffer): void;
  finish(): boolean;
  output: forge.util.ByteBuffer;
}
/** forge's PBE dispatcher (PKCS#12 PBE incl. RC2-40 and 3DES, and PBES2); not in its typings. */
const pbe = (
  forge.pki as unknown as { pbe: { getCipher(oid: string, params: Asn1, password: string): PbeCipher } }
).pbe;

class Corrupt extends Error {}
class Unsupported extends Error {}
class WrongPassword extends Error {}

/** `details.keystoreProblem` of the 403: a machine-readable cause next to the sentence. */
export type KeystoreProblem = 'wrong-password' | 'damaged' | 'unsupported' | 'over-limits';

/** Opens the keystore; see the module comment for the errors. */
export function readPkcs12(
  bytes: Uint8Array,
  storePassword: string,
  keyPassword: string,
  limits: Pkcs12Limits = DEFAULT_PKCS12_LIMITS,
): Pkcs12Contents {
  try {
    return walk(bytes, storePassword, keyPassword, new WorkBudget(limits));
  } catch (e) {
    if (e instanceof WrongPassword) throw keystoreError(e.message, 'wrong-password');
    if (e instanceof Unsupported) throw keystoreError(e.message, 'unsupported');
    if (e instanceof KeystoreOverLimits) throw keystoreError(e.message, 'over-limits');
    const reason = e instanceof Corrupt ? e.message : 'the data are not a readable PKCS#12 keystore';
    throw keystoreError(`${reason} (corrupted or truncated file?)`, 'damaged');
  }
}

export function keystoreError(reason: string, problem: KeystoreProblem): FiscalError {
  return new FiscalError(
    'MERCHANT_WRONG_PASSWORD_OR_CORRUPTED_FILE',
    `authentication data keystore: ${reason}`,
    {
      keystoreProblem: problem,
    },
  );
}

function walk(
  bytes: Uint8Array,
  storePassword: string,
  keyPassword: string,
  budget: WorkBudget,
): Pkcs12Contents {
  budget.size(bytes.byteLength);
  const pfx = seq(fromDer(binary(bytes)), 'PFX');
  const [version, authSafe, macData] = pfx;
  if (!version || intValue(version) !== 3) throw new Corrupt('not a PKCS#12 version 3 keystore');
  const [contentType, content] = seq(authSafe, 'authSafe');
  if (oid(contentType) !== OIDS.data)
    throw new Unsupported('only password-integrity keystores are supported');
  const authSafeBytes = octets(explicit(content));

  // Cheap structural checks first: everything readable without a password is counted, and the
  // derivations it asks for are paid for before the first one runs.
  const infos = seq(fromDer(authSafeBytes), 'AuthenticatedSafe');
  budget.contentInfos(infos.length);
  const parts: Array<{ bags: Asn1[] } | { algorithm: Asn1; encrypted: string }> = [];
  let work = macData ? macWork(macData, budget) : 0;
  for (const info of infos) {
    const [type, value] = seq(info, 'ContentInfo');
    const typeOid = oid(type);
    if (typeOid === OIDS.data) {
      const bags = seq(fromDer(octets(explicit(value))), 'SafeContents');
      budget.bags(bags.length);
      work += bagsWork(bags, budget);
      parts.push({ bags });
    } else if (typeOid === OIDS.encryptedData) {
      const [, encryptedContentInfo] = seq(explicit(value), 'EncryptedData');
      const [, algorithm, encrypted] = seq(encryptedContentInfo, 'EncryptedContentInfo');
      if (!algorithm || !encrypted) throw new Corrupt('encrypted contents without data');
      work += pbeWork(algorithm, budget);
      parts.push({ algorithm, encrypted: octets(encrypted) });
    }
    // Other content types (enveloped data, public-key privacy mode) are not used by the SFS.
  }
  budget.spend(work);

  if (macData) verifyMac(macData, authSafeBytes, storePassword);
  const result: Pkcs12Contents = { keys: [], certificates: [] };
  for (const part of parts) {
    if ('bags' in part) {
      readBags(part.bags, keyPassword, result);
      continue;
    }
    const plain = pbeDecrypt(part.algorithm, part.encrypted, storePassword);
    if (plain === undefined)
      throw new WrongPassword('the keystore password is wrong (certificates do not decrypt)');
    const bags = seq(fromDer(plain), 'SafeContents');
    budget.bags(bags.length);
    budget.spend(bagsWork(bags, budget));
    readBags(bags, keyPassword, result);
  }
  return result;
}

function macWork(macData: Asn1, budget: WorkBudget): number {
  const [digestInfo, , iterations] = seq(macData, 'MacData');
  const [algorithm] = seq(digestInfo, 'DigestInfo');
  const algorithmOid = oid(seq(algorithm, 'AlgorithmIdentifier')[0]);
  if (!MAC_DIGESTS[algorithmOid]) throw new Unsupported(`unsupported MAC algorithm ${algorithmOid}`);
  const count = iterations ? intValue(iterations) : 1;
  if (count < 1) throw new Corrupt('bad MAC iteration count');
  return budget.derivation(count, 1);
}

/** The derivations the shrouded key bags of a SafeContents ask for. */
function bagsWork(bags: Asn1[], budget: WorkBudget): number {
  let work = 0;
  for (const bag of bags) {
    const [bagId, bagValue] = seq(bag, 'SafeBag');
    if (oid(bagId) !== OIDS.shroudedKeyBag) continue;
    const [algorithm] = seq(explicit(bagValue), 'EncryptedPrivateKeyInfo');
    work += pbeWork(algorithm, budget);
  }
  return work;
}

function verifyMac(macData: Asn1, authSafeBytes: string, password: string): void {
  const [digestInfo, salt, iterations] = seq(macData, 'MacData');
  const [algorithm, digest] = seq(digestInfo, 'DigestInfo');
  const spec = MAC_DIGESTS[oid(seq(algorithm, 'AlgorithmIdentifier')[0])]!;
  const count = iterations ? intValue(iterations) : 1;
  // RFC 7292 appendix B: MAC key from the password with ID 3, same hash as the MAC.
  const key = forge.pkcs12.generateKey(
    password,
    forge.util.createBuffer(octets(salt)),
    3,
    count,
    spec.bytes,
    spec.md(),
  );
  const mac = createHmac(spec.name, Buffer.from(key.getBytes(), 'binary'))
    .update(Buffer.from(authSafeBytes, 'binary'))
    .digest();
  const expected = Buffer.from(octets(digest), 'binary');
  if (expected.length !== mac.length || !timingSafeEqual(expected, mac)) {
    throw new WrongPassword('the keystore password is wrong (integrity check failed)');
  }
}

function readBags(bags: Asn1[], keyPassword: string, into: Pkcs12Contents): void {
  for (const bag of bags) {
    const [bagId, bagValue, bagAttributes] = seq(bag, 'SafeBag');
    const attributes = readAttributes(bagAttributes);
    const value = explicit(bagValue);
    switch (oid(bagId)) {
      case OIDS.keyBag:
        into.keys.push({ ...attributes, pkcs8Der: bytesOf(asn1.toDer(value).getBytes()) });
        break;
      case OIDS.shroudedKeyBag: {
        const [algorithm, encrypted] = seq(value, 'EncryptedPrivateKeyInfo');
        const plain = pbeDecrypt(algorithm, octets(encrypted), keyPassword);
        if (plain === undefined)
          throw new WrongPassword('the private key password is wrong (the key does not decrypt)');
        into.keys.push({ ...attributes, pkcs8Der: bytesOf(plain) });
        break;
      }
      case OIDS.certBag: {
        const [certId, certValue] = seq(value, 'CertBag');
        if (oid(certId) === OIDS.x509Certificate) {
          into.certificates.push({ ...attributes, der: bytesOf(octets(explicit(certValue))) });
        }
        break;
      }
      default:
      // CRL, secret and nested safe-contents bags are not used in eKasa keystores.
    }
  }
}

function readAttributes(set: Asn1 | undefined): BagAttributes {
  const out: BagAttributes = {};
  if (!set || !Array.isArray(set.value)) return out;
  for (const attribute of set.value) {
    const [type, values] = seq(attribute, 'Attribute');
    const first = values && Array.isArray(values.value) ? values.value[0] : undefined;
    if (!first) continue;
    if (oid(type) === OIDS.friendlyName) out.friendlyName = bmpString(first);
    else if (oid(type) === OIDS.localKeyId) out.localKeyId = forge.util.bytesToHex(octets(first));
  }
  return out;
}

/** Decrypts PBE data; undefined when the padding is wrong (the usual sign of a wrong password). */
function pbeDecrypt(algorithm: Asn1 | undefined, encrypted: string, password: string): string | undefined {
  const [algorithmOid, params] = seq(algorithm, 'AlgorithmIdentifier');
  let cipher: PbeCipher;
  try {
    cipher = pbe.getCipher(oid(algorithmOid), params as Asn1, password);
  } catch {
    throw new Unsupported(`unsupported encryption ${oid(algorithmOid)}`);
  }
  cipher.update(forge.util.createBuffer(encrypted));
  if (!cipher.finish()) return undefined;
  const plain = cipher.output.getBytes();
  try {
    fromDer(plain);
  } catch {
    return undefined; // padding happened to be right, contents are garbage: wrong password
  }
  return plain;
}

const PKCS12_PBE_PREFIX = '1.2.840.113549.1.12.1.';
const PBES2 = '1.2.840.113549.1.5.13';

/**
 * The work one PBE decryption asks for (the derivations run in JavaScript). PKCS#12 PBE derives
 * the key and the IV separately (RFC 7292 appendix B): two derivations; PBES2 runs PBKDF2 once,
 * about twice as costly per iteration here.
 */
function pbeWork(algorithm: Asn1 | undefined, budget: WorkBudget): number {
  const [algorithmOid, params] = seq(algorithm, 'AlgorithmIdentifier');
  const name = oid(algorithmOid);
  let count: Asn1 | undefined;
  if (name.startsWith(PKCS12_PBE_PREFIX)) {
    count = seq(params, 'PBE parameters')[1];
  } else if (name === PBES2) {
    const [kdf] = seq(params, 'PBES2 parameters');
    count = seq(seq(kdf, 'key derivation')[1], 'PBKDF2 parameters')[1];
  } else {
    throw new Unsupported(`unsupported encryption ${name}`);
  }
  if (!count) throw new Corrupt('missing iteration count');
  const iterations = intValue(count);
  if (iterations < 1) throw new Corrupt('bad iteration count');
  return budget.derivation(iterations, 2);
}

// --- ASN.1 helpers over forge's tree ---

function fromDer(der: string): Asn1 {
  try {
    // strict: a declared length longer than the data is an error, not silently shortened (truncated files).
    return asn1.fromDer(forge.util.createBuffer(der), true);
  } catch {
    throw new Corrupt('the keystore is not valid ASN.1');
  }
}

function seq(node: Asn1 | undefined, what: string): Asn1[] {
  if (!node?.constructed || !Array.isArray(node.value)) throw new Corrupt(`${what} is not a SEQUENCE`);
  return node.value;
}

/** The content of a `[0] EXPLICIT` wrapper. */
function explicit(node: Asn1 | undefined): Asn1 {
  const inner = Array.isArray(node?.value) ? node.value[0] : undefined;
  if (!inner) throw new Corrupt('missing explicit content');
  return inner;
}

/** OCTET STRING bytes (primitive or constructed BER form). */
function octets(node: Asn1 | undefined): string {
  if (!node) throw new Corrupt('missing OCTET STRING');
  if (typeof node.value === 'string') return node.value;
  return node.value.map((part) => octets(part)).join('');
}

function oid(node: Asn1 | undefined): string {
  if (!node || node.type !== asn1.Type.OID || typeof node.value !== 'string')
    throw new Corrupt('missing OID');
  return asn1.derToOid(node.value);
}

function intValue(node: Asn1): number {
  if (node.type !== asn1.Type.INTEGER || typeof node.value !== 'string') throw new Corrupt('missing INTEGER');
  return node.value.length > 4 ? Number.POSITIVE_INFINITY : asn1.derToInteger(node.value);
}

/** friendlyName is a BMPString; forge's decoder already turns BMPString bytes into text. */
function bmpString(node: Asn1): string {
  if (node.type !== asn1.Type.BMPSTRING || typeof node.value !== 'string')
    throw new Corrupt('friendlyName is not a BMPString');
  return node.value;
}

function binary(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('binary');
}

function bytesOf(binaryString: string): Uint8Array {
  return new Uint8Array(Buffer.from(binaryString, 'binary'));
}
