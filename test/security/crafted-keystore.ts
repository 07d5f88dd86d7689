import { randomBytes } from 'node:crypto';
import forge from 'node-forge';

/**
 * Hostile PKCS#12 keystores, as an attacker would send them to `POST /api/merchant/store`: the
 * structure is valid, the contents are random bytes, and the file asks for as many key
 * derivations as it likes — each bag names its own iteration count, and nothing in the format
 * limits the number of bags.
 */
export interface CraftedKeystore {
  /** Shrouded key bags (pbeWithSHAAnd3-KeyTripleDES-CBC) in one plain SafeContents. */
  bags: number;
  /** Iteration count of every bag. */
  iterations: number;
  /** MacData with this iteration count (none by default: the MAC is optional in RFC 7292). */
  macIterations?: number;
  /** ContentInfos: the bags are spread over this many plain data parts (default 1). */
  parts?: number;
  /**
   * Encrypt the bags properly under this password (the attacker sends the password too), so every
   * bag decrypts and a reader without bounds derives a key for each one. Without it the bags hold
   * random bytes. One bag is encrypted and repeated: crafting costs one derivation.
   */
  password?: string;
}

const { asn1 } = forge;
type Asn1 = forge.asn1.Asn1;

const OID = {
  data: '1.2.840.113549.1.7.1',
  shroudedKeyBag: '1.2.840.113549.1.12.10.1.2',
  pbeSha1TripleDes: '1.2.840.113549.1.12.1.3',
  sha1: '1.3.14.3.2.26',
};

export function craftKeystore(spec: CraftedKeystore): Uint8Array {
  const parts = spec.parts ?? 1;
  const encrypted =
    spec.password === undefined
      ? seq([
          seq([oid(OID.pbeSha1TripleDes), seq([octets(randomBytes(8)), integer(spec.iterations)])]),
          octets(randomBytes(24)),
        ])
      : forge.pki.encryptPrivateKeyInfo(seq([integer(0)]), spec.password, {
          algorithm: '3des',
          count: spec.iterations,
          saltSize: 8,
        });
  const bag = (): Asn1 => seq([oid(OID.shroudedKeyBag), explicit0(encrypted)]);
  const infos: Asn1[] = [];
  for (let p = 0; p < parts; p++) {
    const count = Math.floor(spec.bags / parts) + (p < spec.bags % parts ? 1 : 0);
    const safeContents = seq(Array.from({ length: count }, bag));
    infos.push(seq([oid(OID.data), explicit0(octets(der(safeContents)))]));
  }
  const authSafe = der(seq(infos));
  const pfx: Asn1[] = [integer(3), seq([oid(OID.data), explicit0(octets(authSafe))])];
  if (spec.macIterations !== undefined) {
    pfx.push(
      seq([
        seq([
          seq([oid(OID.sha1), asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, '')]),
          octets(randomBytes(20)),
        ]),
        octets(randomBytes(8)),
        integer(spec.macIterations),
      ]),
    );
  }
  return new Uint8Array(Buffer.from(der(seq(pfx)), 'binary'));
}

/** The keystore inside an AuthData file, as `authenticationData` carries it. */
export function authDataXml(keystore: Uint8Array, alias = '88812345678900001'): string {
  return `<?xml version="1.0" encoding="UTF-8"?><AuthData xmlns="http://financnasprava.sk/ekasa/udaje/schema/v2"><KeyStoreType>PKCS12</KeyStoreType><Data>${Buffer.from(keystore).toString('base64')}</Data><CertificateAlias>${alias}</CertificateAlias></AuthData>`;
}

function seq(items: Asn1[]): Asn1 {
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, items);
}

function oid(dotted: string): Asn1 {
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(dotted).getBytes());
}

function octets(bytes: Buffer | string): Asn1 {
  const value = typeof bytes === 'string' ? bytes : bytes.toString('binary');
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, value);
}

function integer(n: number): Asn1 {
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, asn1.integerToDer(n).getBytes());
}

function explicit0(inner: Asn1): Asn1 {
  return asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [inner]);
}

function der(value: Asn1): string {
  return asn1.toDer(value).getBytes();
}
