import { hash, randomFillSync, verify as rsaVerify, X509Certificate } from 'node:crypto';
import type { Document, Element } from '@xmldom/xmldom';
import { ExclusiveCanonicalization } from 'xml-crypto';
import type { MessageSigner } from '../../core/ports/tax-authority.js';
import { type BodyTemplate, type FilledBody, holeMarker, splitAtMarkers } from './body-template.js';
import type { CertificateCache } from './certificate-cache.js';
import type { CanonicalBody } from './soap-envelope.js';
import { NS } from './soap-envelope.js';
import { elementChildren, forEachElement, is, parseXml, XmlParseError } from './xml-dom.js';

/**
 * WS-Security 1.0 + XML Signature for SFS messages, the profile of the official samples (SFS spec
 * §2.4 and the SFS's signed sample requests): one Reference to the SOAP Body by its `wsu:Id`,
 * exclusive C14N (SignedInfo with `PrefixList="soapenv"`, the Body transform with `PrefixList=""`),
 * RSA-SHA256, SHA-256 digest, the X.509 certificate in a BinarySecurityToken and KeyInfo pointing to
 * it through a SecurityTokenReference. Used for kasa's requests and, by the simulator, for its responses.
 */

const ALG = {
  excC14n: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  rsaSha256: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  sha256: 'http://www.w3.org/2001/04/xmlenc#sha256',
  base64Binary:
    'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary',
  x509v3: 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3',
} as const;

const DIGEST_PLACEHOLDER = '__KASA_DIGEST__';
const SIGNATURE_PLACEHOLDER = '__KASA_SIGNATURE__';
const BODY_ID_PLACEHOLDER = '__KASA_BODY_ID__';

// Random bytes drawn 4 KB at a time: a call to the system's generator per message cost as much as
// the rest of building the envelope (capability 13 profile). 128 bits per id as before.
const ID_POOL = Buffer.alloc(16 * 256);
let idOffset = ID_POOL.length;
const newId = () => {
  if (idOffset === ID_POOL.length) {
    randomFillSync(ID_POOL);
    idOffset = 0;
  }
  idOffset += 16;
  return ID_POOL.toString('hex', idOffset - 16, idOffset).toUpperCase();
};

/**
 * Wraps `bodyContent` (one element, e.g. `ekasa:RegisterReceiptRequest`) in a SOAP 1.2 envelope
 * and signs the Body. Every call makes new ids and a new signature (spec §2.4: signed again on
 * every send attempt). The result is the exact byte string to send, UTF-8, with the XML
 * declaration first (spec §3.1). The Body is given as text (parsed to be canonicalized), as a
 * filled {@link BodyTemplate} or as text with its canonical form from its writer (ADR 1106).
 */
export function signEnvelope(body: string | FilledBody | CanonicalBody, signer: MessageSigner): string {
  const bodyContent =
    typeof body === 'string' ? body : 'template' in body ? body.template.fill(body.values) : body.text;
  const id = newId();
  const bodyId = `id-${id}`;
  const tokenId = `X509-${id}`;
  const token = Buffer.from(signer.certificateDer).toString('base64');
  const signedInfo = signedInfoXml(bodyId, DIGEST_PLACEHOLDER);
  const envelope =
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<soapenv:Envelope xmlns:soapenv="${NS.soap}">` +
    '<soapenv:Header>' +
    `<wsse:Security xmlns:wsse="${NS.wsse}" xmlns:wsu="${NS.wsu}">` +
    `<wsse:BinarySecurityToken EncodingType="${ALG.base64Binary}" ValueType="${ALG.x509v3}" wsu:Id="${tokenId}">${token}</wsse:BinarySecurityToken>` +
    `<ds:Signature Id="SIG-${id}" xmlns:ds="${NS.ds}">` +
    signedInfo +
    `<ds:SignatureValue>${SIGNATURE_PLACEHOLDER}</ds:SignatureValue>` +
    `<ds:KeyInfo Id="KI-${id}"><wsse:SecurityTokenReference wsu:Id="STR-${id}">` +
    `<wsse:Reference URI="#${tokenId}" ValueType="${ALG.x509v3}"/>` +
    '</wsse:SecurityTokenReference></ds:KeyInfo>' +
    '</ds:Signature>' +
    '</wsse:Security>' +
    '</soapenv:Header>' +
    `<soapenv:Body wsu:Id="${bodyId}" xmlns:wsu="${NS.wsu}">${bodyContent}</soapenv:Body>` +
    '</soapenv:Envelope>';

  // Exclusive C14N renders only the namespaces an element uses, so the Body alone (its prefix and
  // wsu declared on it) canonicalizes exactly as inside the envelope: the header, with the
  // certificate's long text, need not be parsed again (capability 13: nothing re-parsed that was built).
  // A template's canonical form is known with markers in its holes: only the values go in (ADR 1106).
  // A request's writer gives its canonical form with its text: only the Body around it is added.
  const digest = sha256Base64(
    typeof body === 'string'
      ? canonicalBody(bodyId, bodyContent)
      : 'template' in body
        ? canonicalTemplate(body, bodyId)
        : canonicalAround(bodyId, body.canonical),
  );
  const canonicalSignedInfo = signedInfoCanonicalForm()
    .replace(BODY_ID_PLACEHOLDER, bodyId)
    .replace(DIGEST_PLACEHOLDER, digest);
  const signature = signer.sign(new TextEncoder().encode(canonicalSignedInfo));
  return envelope
    .replace(DIGEST_PLACEHOLDER, digest)
    .replace(SIGNATURE_PLACEHOLDER, Buffer.from(signature).toString('base64'));
}

/** The exclusive C14N form of the Body with this id around this content (transform PrefixList=""). */
function canonicalBody(bodyId: string, bodyContent: string): string {
  const bodyAlone = parseXml(
    `<soapenv:Body wsu:Id="${bodyId}" xmlns:soapenv="${NS.soap}" xmlns:wsu="${NS.wsu}">${bodyContent}</soapenv:Body>`,
  );
  return canonicalize(bodyAlone.documentElement!, []);
}

let bodyAround: { before: [string, string]; after: string } | undefined;

/**
 * The canonical Body with this id around content already in canonical form: the Body's own part
 * worked out once by the canonicalizer, with markers for the id and the content.
 */
function canonicalAround(bodyId: string, canonicalContent: string): string {
  if (bodyAround === undefined) {
    const { parts, holes } = splitAtMarkers(canonicalBody(holeMarker(1), holeMarker(0)));
    if (holes.join() !== '1,0') throw new Error('the canonical Body does not hold its id before its content');
    bodyAround = { before: [parts[0]!, parts[1]!], after: parts[2]! };
  }
  return bodyAround.before[0] + bodyId + bodyAround.before[1] + canonicalContent + bodyAround.after;
}

/** Per template: its Body's canonical form split at the holes; hole -1 is the Body id. */
const canonicalTemplates = new WeakMap<BodyTemplate, { parts: string[]; holes: number[] }>();

/**
 * The canonical Body of a filled template: the canonicalizer itself runs once per template, on the
 * template with markers (letters and digits, which C14N writes as they are) in its holes and for
 * the Body id; C14N may reorder attributes, so where each hole landed is read from the result. The
 * values are {@link SAFE_VALUE}s (checked when filled), written the same raw and canonical.
 */
function canonicalTemplate(body: FilledBody, bodyId: string): string {
  let known = canonicalTemplates.get(body.template);
  if (!known) {
    const idMarker = holeMarker(body.values.length);
    const { parts, holes } = splitAtMarkers(
      canonicalBody(idMarker, body.template.fill(body.values.map((_, i) => holeMarker(i)))),
    );
    const expected = [...body.values.keys(), body.values.length].sort((a, b) => a - b);
    if (
      holes.length !== expected.length ||
      [...holes].sort((a, b) => a - b).some((h, i) => h !== expected[i])
    ) {
      throw new Error('a body template whose canonical form does not hold each hole once');
    }
    known = { parts, holes: holes.map((h) => (h === body.values.length ? -1 : h)) };
    canonicalTemplates.set(body.template, known);
  }
  let text = known.parts[0]!;
  for (let i = 0; i < known.holes.length; i++) {
    const hole = known.holes[i]!;
    text += (hole === -1 ? bodyId : body.values[hole]!) + known.parts[i + 1]!;
  }
  return text;
}

/** The SignedInfo every signature uses, with the Body id and the digest as placeholders. */
function signedInfoXml(bodyId: string, digest: string): string {
  return (
    '<ds:SignedInfo>' +
    `<ds:CanonicalizationMethod Algorithm="${ALG.excC14n}"><ec:InclusiveNamespaces PrefixList="soapenv" xmlns:ec="${NS.ec}"/></ds:CanonicalizationMethod>` +
    `<ds:SignatureMethod Algorithm="${ALG.rsaSha256}"/>` +
    `<ds:Reference URI="#${bodyId}">` +
    `<ds:Transforms><ds:Transform Algorithm="${ALG.excC14n}"><ec:InclusiveNamespaces PrefixList="" xmlns:ec="${NS.ec}"/></ds:Transform></ds:Transforms>` +
    `<ds:DigestMethod Algorithm="${ALG.sha256}"/>` +
    `<ds:DigestValue>${digest}</ds:DigestValue>` +
    '</ds:Reference>' +
    '</ds:SignedInfo>'
  );
}

let signedInfoTemplate: string | undefined;

/**
 * The exclusive C14N form of SignedInfo (PrefixList="soapenv": the Envelope's soapenv declaration
 * is rendered on it, nothing else in scope is), computed once by the canonicalizer itself with
 * placeholders for the two values that change; the placeholders are plain text and attribute
 * characters, which C14N leaves as they are, so substituting them gives the form of each message.
 */
function signedInfoCanonicalForm(): string {
  if (signedInfoTemplate === undefined) {
    const doc = parseXml(
      `<soapenv:Envelope xmlns:soapenv="${NS.soap}"><soapenv:Header><wsse:Security xmlns:wsse="${NS.wsse}" xmlns:wsu="${NS.wsu}">` +
        `<ds:Signature xmlns:ds="${NS.ds}">${signedInfoXml(BODY_ID_PLACEHOLDER, DIGEST_PLACEHOLDER)}</ds:Signature>` +
        '</wsse:Security></soapenv:Header></soapenv:Envelope>',
    );
    const signedInfo = doc.getElementsByTagNameNS(NS.ds, 'SignedInfo').item(0)!;
    signedInfoTemplate = canonicalize(signedInfo, ['soapenv']);
  }
  return signedInfoTemplate;
}

/** Why a signed envelope cannot be accepted; the simulator maps these to -2 / -10 / -12. */
export type EnvelopeFailure = 'malformed' | 'missing-signature' | 'certificate-format' | 'signature';

export type VerifiedEnvelope =
  | { ok: true; document: Document; body: Element; certificate: X509Certificate }
  | { ok: false; failure: EnvelopeFailure; reason: string };

class Refused extends Error {
  constructor(
    readonly failure: EnvelopeFailure,
    reason: string,
  ) {
    super(reason);
  }
}

/**
 * Checks the WS-Security signature of a SOAP 1.2 envelope against the certificate it carries:
 * the profile above and nothing looser (one Reference, to the Body that is the Envelope's own
 * child, by an id no other element shares). Trust in the certificate is the caller's decision.
 */
export function verifyEnvelope(
  xml: string | Document,
  options: { certificates?: CertificateCache } = {},
): VerifiedEnvelope {
  try {
    let doc: Document;
    try {
      // A caller that parsed the message already passes its document (nothing parsed twice).
      doc = typeof xml === 'string' ? parseXml(xml) : xml;
    } catch (e) {
      throw new Refused('malformed', e instanceof XmlParseError ? e.message : 'not XML');
    }
    const body = soapBody(doc);
    if (!body) throw new Refused('malformed', 'not a SOAP 1.2 envelope with a Body');
    const header = elementChildren(doc.documentElement!).find((e) => is(e, NS.soap, 'Header'));
    const securities = header ? elementChildren(header).filter((e) => is(e, NS.wsse, 'Security')) : [];
    if (securities.length !== 1) throw new Refused('missing-signature', 'no single wsse:Security header');
    const security = securities[0]!;
    const signatures = elementChildren(security).filter((e) => is(e, NS.ds, 'Signature'));
    if (signatures.length !== 1)
      throw new Refused('missing-signature', 'no single ds:Signature in wsse:Security');
    const [signedInfo, signatureValue, keyInfo, ...rest] = elementChildren(signatures[0]!);
    if (
      !is(signedInfo, NS.ds, 'SignedInfo') ||
      !is(signatureValue, NS.ds, 'SignatureValue') ||
      rest.length > 0
    ) {
      throw new Refused('signature', 'ds:Signature must hold SignedInfo, SignatureValue and KeyInfo');
    }
    const certificate = tokenCertificate(security, keyInfo, options.certificates);
    const { bodyPrefixes, signedInfoPrefixes, digestValue } = readSignedInfo(signedInfo, body, doc);
    const digest = sha256Base64(canonicalize(body, bodyPrefixes));
    if (digest !== digestValue) throw new Refused('signature', 'the Body digest does not match');
    const canonicalSignedInfo = canonicalize(signedInfo, signedInfoPrefixes);
    const value = Buffer.from((signatureValue.textContent ?? '').replace(/\s+/g, ''), 'base64');
    if (!rsaVerify('sha256', Buffer.from(canonicalSignedInfo, 'utf8'), certificate.publicKey, value)) {
      throw new Refused('signature', 'the SignatureValue does not verify with the certificate');
    }
    return { ok: true, document: doc, body, certificate };
  } catch (e) {
    if (e instanceof Refused) return { ok: false, failure: e.failure, reason: e.message };
    throw e;
  }
}

/** The Envelope's Body, when the document is a SOAP 1.2 envelope `[Header] Body`. */
export function soapBody(doc: Document): Element | undefined {
  const envelope = doc.documentElement ?? undefined;
  if (!is(envelope, NS.soap, 'Envelope')) return undefined;
  const children = elementChildren(envelope);
  const [first, second, ...rest] = children;
  if (rest.length > 0) return undefined;
  if (is(first, NS.soap, 'Header') && is(second, NS.soap, 'Body')) return second;
  if (is(first, NS.soap, 'Body') && second === undefined) return first;
  return undefined;
}

function tokenCertificate(
  security: Element,
  keyInfo: Element | undefined,
  certificates: CertificateCache | undefined,
): X509Certificate {
  const str = keyInfo && is(keyInfo, NS.ds, 'KeyInfo') ? elementChildren(keyInfo)[0] : undefined;
  const reference = str && is(str, NS.wsse, 'SecurityTokenReference') ? elementChildren(str)[0] : undefined;
  const uri = reference && is(reference, NS.wsse, 'Reference') ? reference.getAttribute('URI') : null;
  if (!uri?.startsWith('#')) throw new Refused('signature', 'KeyInfo must reference a BinarySecurityToken');
  const tokens = elementChildren(security).filter(
    (e) => is(e, NS.wsse, 'BinarySecurityToken') && e.getAttributeNS(NS.wsu, 'Id') === uri.slice(1),
  );
  if (tokens.length !== 1) throw new Refused('certificate-format', `no BinarySecurityToken ${uri}`);
  const token = tokens[0]!;
  if (
    token.getAttribute('ValueType') !== ALG.x509v3 ||
    token.getAttribute('EncodingType') !== ALG.base64Binary
  ) {
    throw new Refused('certificate-format', 'the BinarySecurityToken is not a Base64 X.509v3 token');
  }
  const tokenText = token.textContent ?? '';
  // A token text seen before passed the checks below and was read then: the same text gives the
  // same answer, so it is not scanned again (a register sends the same certificate every time).
  let certificate = certificates?.known(tokenText);
  if (certificate === undefined) {
    const text = tokenText.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text))
      throw new Refused('certificate-format', 'the token is not Base64');
    try {
      certificate = certificates
        ? certificates.get(text, tokenText)
        : new X509Certificate(Buffer.from(text, 'base64'));
    } catch {
      throw new Refused('certificate-format', 'the token is not a DER X.509 certificate');
    }
  }
  const read = certificate;
  const rsa = certificates
    ? certificates.fact(read, 'rsa', () => read.publicKey.asymmetricKeyType === 'rsa')
    : read.publicKey.asymmetricKeyType === 'rsa';
  if (!rsa) throw new Refused('certificate-format', 'the key is not RSA');
  return read;
}

function readSignedInfo(signedInfo: Element, body: Element, doc: Document) {
  const [c14n, method, ...references] = elementChildren(signedInfo);
  if (!is(c14n, NS.ds, 'CanonicalizationMethod') || c14n.getAttribute('Algorithm') !== ALG.excC14n) {
    throw new Refused('signature', 'SignedInfo must use exclusive C14N');
  }
  if (!is(method, NS.ds, 'SignatureMethod') || method.getAttribute('Algorithm') !== ALG.rsaSha256) {
    throw new Refused('signature', 'the signature method must be RSA-SHA256');
  }
  if (references.length !== 1 || !is(references[0], NS.ds, 'Reference')) {
    throw new Refused('signature', 'SignedInfo must hold exactly one Reference');
  }
  const reference = references[0];
  const bodyId = body.getAttributeNS(NS.wsu, 'Id');
  if (!bodyId || reference.getAttribute('URI') !== `#${bodyId}`) {
    throw new Refused('signature', 'the Reference must point to the SOAP Body by its wsu:Id');
  }
  // One element with that id: no second element may pose as the signed Body (signature wrapping).
  let holders = 0;
  forEachElement(doc.documentElement!, (element) => {
    if (element.getAttributeNS(NS.wsu, 'Id') === bodyId || element.getAttribute('Id') === bodyId) holders++;
  });
  if (holders !== 1) throw new Refused('signature', 'the Body id is not unique');
  const [transforms, digestMethod, digestValue, ...extra] = elementChildren(reference);
  const transformList = transforms && is(transforms, NS.ds, 'Transforms') ? elementChildren(transforms) : [];
  const transform = transformList[0];
  if (
    transformList.length !== 1 ||
    !is(transform, NS.ds, 'Transform') ||
    transform.getAttribute('Algorithm') !== ALG.excC14n
  ) {
    throw new Refused('signature', 'the Reference must have one exclusive C14N transform');
  }
  if (!is(digestMethod, NS.ds, 'DigestMethod') || digestMethod.getAttribute('Algorithm') !== ALG.sha256) {
    throw new Refused('signature', 'the digest method must be SHA-256');
  }
  if (!is(digestValue, NS.ds, 'DigestValue') || extra.length > 0)
    throw new Refused('signature', 'no DigestValue');
  return {
    bodyPrefixes: prefixList(transform),
    signedInfoPrefixes: prefixList(c14n),
    digestValue: (digestValue.textContent ?? '').trim(),
  };
}

function prefixList(algorithmElement: Element): string[] {
  const inclusive = elementChildren(algorithmElement).find((e) => is(e, NS.ec, 'InclusiveNamespaces'));
  return (inclusive?.getAttribute('PrefixList') ?? '').split(/\s+/).filter((p) => p.length > 0);
}

/** Exclusive C14N (without comments) of `element`, with `prefixes` treated inclusively. */
function canonicalize(element: Element, prefixes: string[]): string {
  const ancestorNamespaces = prefixes.flatMap((prefix) => {
    const namespaceURI = element.lookupNamespaceURI(prefix);
    return namespaceURI ? [{ prefix, namespaceURI }] : [];
  });
  // xml-crypto works on any W3C DOM; it bundles its own xmldom typings, hence the cast.
  return new ExclusiveCanonicalization().process(
    element as unknown as Parameters<ExclusiveCanonicalization['process']>[0],
    {
      inclusiveNamespacesPrefixList: prefixes,
      ancestorNamespaces,
    },
  ) as string;
}

// One-shot hashing (Node ≥ 20.12; engines say ≥ 20.19): no Hash object per digest (capability 13).
function sha256Base64(text: string): string {
  return hash('sha256', text, 'base64');
}
