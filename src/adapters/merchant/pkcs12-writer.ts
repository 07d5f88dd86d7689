import { createHash, createHmac, randomBytes } from 'node:crypto';
import forge from 'node-forge';

/**
 * Writes a PKCS#12 keystore in the layout the SFS issues (as its public test authentication data
 * show, GitHub `datapacsro/oec`, `auth_id/`), so test merchants exercise the same code path as real
 * ones: the private key in a pkcs8ShroudedKeyBag (pbeWithSHAAnd3-KeyTripleDES-CBC), the
 * certificates in one SafeContents encrypted with pbeWithSHAAnd40BitRC2-CBC, HMAC-SHA1 integrity,
 * 1024 iterations, the alias as friendlyName and the certificate's SHA-1 as localKeyId. forge's own
 * writer leaves certificates unencrypted, hence this module.
 */
export interface Pkcs12Entry {
  alias: string;
  /** PrivateKeyInfo, DER. */
  keyPkcs8Der: Uint8Array;
  /** The entry's certificate first, then optionally its issuers (DER). */
  certificatesDer: Uint8Array[];
  keyStorePassword: string;
  /** Defaults to the keystore password, as in every SFS file. */
  privateKeyPassword?: string;
  iterations?: number;
}

const { asn1 } = forge;
type Asn1 = forge.asn1.Asn1;

const OID = {
  data: '1.2.840.113549.1.7.1',
  encryptedData: '1.2.840.113549.1.7.6',
  shroudedKeyBag: '1.2.840.113549.1.12.10.1.2',
  certBag: '1.2.840.113549.1.12.10.1.3',
  x509Certificate: '1.2.840.113549.1.9.22.1',
  friendlyName: '1.2.840.113549.1.9.20',
  localKeyId: '1.2.840.113549.1.9.21',
  rc2_40: '1.2.840.113549.1.12.1.6',
  sha1: '1.3.14.3.2.26',
} as const;

/** The keystore, DER. */
export function writePkcs12(entry: Pkcs12Entry): Uint8Array {
  const iterations = entry.iterations ?? 1024;
  const [leaf] = entry.certificatesDer;
  if (!leaf) throw new Error('a keystore entry needs its certificate');
  const localKeyId = createHash('sha1').update(leaf).digest('binary');
  const attributes = (withKeyId: boolean) =>
    set([
      attribute(OID.friendlyName, node(asn1.Type.BMPSTRING, entry.alias)),
      ...(withKeyId ? [attribute(OID.localKeyId, node(asn1.Type.OCTETSTRING, localKeyId))] : []),
    ]);

  // Key: PKCS#12 PBE with SHA-1 and 3-key triple DES (forge implements exactly this for '3des').
  const keyInfo = asn1.fromDer(forge.util.createBuffer(binary(entry.keyPkcs8Der)));
  const shrouded = forge.pki.encryptPrivateKeyInfo(
    keyInfo,
    entry.privateKeyPassword ?? entry.keyStorePassword,
    {
      algorithm: '3des',
      count: iterations,
      saltSize: 20,
    },
  );
  const keyBag = seq([oid(OID.shroudedKeyBag), explicit0(shrouded), attributes(true)]);

  const certBags = entry.certificatesDer.map((der, i) =>
    seq([
      oid(OID.certBag),
      explicit0(seq([oid(OID.x509Certificate), explicit0(node(asn1.Type.OCTETSTRING, binary(der)))])),
      ...(i === 0 ? [attributes(true)] : []),
    ]),
  );

  const keySafe = dataContentInfo(der(seq([keyBag])));
  const certSafe = rc2EncryptedContentInfo(der(seq(certBags)), entry.keyStorePassword, iterations);
  const authSafe = der(seq([keySafe, certSafe]));

  // MacData: HMAC-SHA1 over the AuthenticatedSafe, key from the password with ID 3 (RFC 7292 B.4).
  const macSalt = randomBytes(20).toString('binary');
  const macKey = forge.pkcs12.generateKey(
    entry.keyStorePassword,
    forge.util.createBuffer(macSalt),
    3,
    iterations,
    20,
  );
  const mac = createHmac('sha1', Buffer.from(macKey.getBytes(), 'binary'))
    .update(Buffer.from(authSafe, 'binary'))
    .digest('binary');
  const pfx = seq([
    node(asn1.Type.INTEGER, asn1.integerToDer(3).getBytes()),
    dataContentInfo(authSafe),
    seq([
      seq([seq([oid(OID.sha1), node(asn1.Type.NULL, '')]), node(asn1.Type.OCTETSTRING, mac)]),
      node(asn1.Type.OCTETSTRING, macSalt),
      node(asn1.Type.INTEGER, asn1.integerToDer(iterations).getBytes()),
    ]),
  ]);
  return new Uint8Array(Buffer.from(der(pfx), 'binary'));
}

/** EncryptedData with pbeWithSHAAnd40BitRC2-CBC (RFC 7292 appendix C), as in the SFS keystores. */
function rc2EncryptedContentInfo(plain: string, password: string, iterations: number): Asn1 {
  const salt = randomBytes(20).toString('binary');
  const key = forge.pkcs12.generateKey(password, forge.util.createBuffer(salt), 1, iterations, 5);
  const iv = forge.pkcs12.generateKey(password, forge.util.createBuffer(salt), 2, iterations, 8);
  const cipher = forge.rc2.createEncryptionCipher(key, 40);
  cipher.start(iv);
  cipher.update(forge.util.createBuffer(plain));
  cipher.finish();
  const algorithm = seq([
    oid(OID.rc2_40),
    seq([
      node(asn1.Type.OCTETSTRING, salt),
      node(asn1.Type.INTEGER, asn1.integerToDer(iterations).getBytes()),
    ]),
  ]);
  const encryptedContentInfo = seq([
    oid(OID.data),
    algorithm,
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, false, cipher.output.getBytes()),
  ]);
  return seq([
    oid(OID.encryptedData),
    explicit0(seq([node(asn1.Type.INTEGER, asn1.integerToDer(0).getBytes()), encryptedContentInfo])),
  ]);
}

function dataContentInfo(content: string): Asn1 {
  return seq([oid(OID.data), explicit0(node(asn1.Type.OCTETSTRING, content))]);
}

function attribute(type: string, value: Asn1): Asn1 {
  return seq([oid(type), set([value])]);
}

function seq(items: Asn1[]): Asn1 {
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, items);
}

function set(items: Asn1[]): Asn1 {
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SET, true, items);
}

function node(type: forge.asn1.Type, value: string): Asn1 {
  return asn1.create(asn1.Class.UNIVERSAL, type, false, value);
}

function oid(dotted: string): Asn1 {
  return node(asn1.Type.OID, asn1.oidToDer(dotted).getBytes());
}

function explicit0(inner: Asn1): Asn1 {
  return asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [inner]);
}

function der(value: Asn1): string {
  return asn1.toDer(value).getBytes();
}

function binary(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('binary');
}
