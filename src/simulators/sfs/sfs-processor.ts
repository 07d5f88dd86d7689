import { verify as rsaVerify, X509Certificate } from 'node:crypto';
import type { CertificateCache } from '../../adapters/tax-authority/certificate-cache.js';
import { soapBody, verifyEnvelope } from '../../adapters/tax-authority/ws-security.js';
import { parseXml, XmlParseError } from '../../adapters/tax-authority/xml-dom.js';
import type { DateRuleContext } from '../../core/sfs/date-rules.js';
import { type SfsViolation, SIM_DUPLICATE_CODE, violation } from '../../core/sfs/ekasa-errors.js';
import type { SfsLocationRequest, SfsReceiptRequest } from '../../core/sfs/message.js';
import { checkLocationLexical, checkReceiptLexical } from '../../core/sfs/message-lexical.js';
import {
  checkLocationMessageAfterSchema,
  checkReceiptMessageAfterSchema,
} from '../../core/sfs/message-rules.js';
import { pkpBaseString } from '../../core/sfs/pkp.js';
import {
  type CarefulContext,
  checkLocationCarefully,
  checkReceiptCarefully,
  rememberAccepted,
} from './careful-checks.js';
import { checkCertificateValidity, readMerchantCertificate } from './merchant-certificate.js';
import { readRequest } from './request-reader.js';
import type { SfsRegistry } from './sfs-registry.js';

export interface ProcessorContext {
  /** The CA whose merchant certificates the simulated SFS trusts. */
  ca: X509Certificate;
  dates: DateRuleContext;
  registry: SfsRegistry;
  newReceiptId: () => string;
  /** The simulator-only checks of a careful server (ADR 0422); absent = none. */
  careful?: CarefulContext;
  /** Certificates read from messages, kept with what does not change about them. */
  certificates?: CertificateCache;
}

export type Processed =
  | { kind: 'receipt'; request: SfsReceiptRequest; id: string; repeated: boolean }
  | { kind: 'location'; request: SfsLocationRequest }
  | {
      kind: 'fault';
      violation: SfsViolation;
      operation?: 'RegisterReceipt' | 'RegisterLocation';
      request?: SfsReceiptRequest | SfsLocationRequest;
    };

/**
 * What the simulated SFS decides about one request, in the order a real server works: schema
 * (-2) and interface version (-8), signature (-10) and certificate format (-12), certificate
 * validity (-13), identity against the certificate (-101, -102), PKP (-100), then the message
 * rules of core/sfs (-111, dates, content), then the careful checks (−901 … −908, ADR 0422), then
 * registration (idempotent by PKP).
 */
export function processRequest(xml: string, ctx: ProcessorContext): Processed {
  let doc: ReturnType<typeof parseXml>;
  let body: ReturnType<typeof soapBody>;
  try {
    doc = parseXml(xml);
    body = soapBody(doc);
  } catch (e) {
    if (e instanceof XmlParseError)
      return { kind: 'fault', violation: violation(-2, `malformed XML: ${e.message}`) };
    throw e;
  }
  if (!body) return { kind: 'fault', violation: violation(-2, 'not a SOAP 1.2 envelope') };
  const read = readRequest(body);
  if ('violation' in read)
    return {
      kind: 'fault',
      violation: read.violation,
      ...(read.operation ? { operation: read.operation } : {}),
    };
  const fault = (v: SfsViolation): Processed => ({
    kind: 'fault',
    violation: v,
    operation: read.operation,
    request: read.request,
  });
  // The schema comes first (-2): value patterns are part of the XSD. Checked once: the message
  // rules below start after it (capability 13).
  const schema =
    read.operation === 'RegisterReceipt'
      ? checkReceiptLexical(read.request)
      : checkLocationLexical(read.request);
  if (schema) return fault(schema);

  // Parsed once; a certificate seen before is not read again (capability 13).
  const certificates = ctx.certificates;
  const envelope = verifyEnvelope(doc, certificates ? { certificates } : {});
  if (!envelope.ok) {
    return fault(violation(envelope.failure === 'certificate-format' ? -12 : -10, envelope.reason));
  }
  const cert = envelope.certificate;
  const identity = certificates
    ? certificates.fact(cert, 'merchant-identity', () => readMerchantCertificate(cert))
    : readMerchantCertificate(cert);
  if ('code' in identity) return fault(identity);
  const invalid = checkCertificateValidity(cert, ctx.ca, ctx.dates.processTime, certificates);
  if (invalid) return fault(invalid);
  const { Dic, CashRegisterCode } = read.request.data;
  if (identity.dic !== Dic)
    return fault(violation(-101, 'Dic differs from the certificate organizationIdentifier'));
  if (identity.registerCode !== CashRegisterCode)
    return fault(violation(-102, 'CashRegisterCode differs from the certificate OU'));

  if (read.operation === 'RegisterLocation') {
    const broken =
      checkLocationMessageAfterSchema(read.request, ctx.dates) ??
      (ctx.careful && checkLocationCarefully(read.request, ctx.careful));
    if (broken) return fault(broken);
    ctx.registry.rememberCertificate(CashRegisterCode, envelope.certificate.raw);
    if (ctx.careful) rememberAccepted(read, ctx.careful);
    return { kind: 'location', request: read.request };
  }

  const request = read.request;
  const pkpCertificate = pkpVerifiedBy(request, envelope.certificate, ctx.registry, ctx.dates.processTime);
  if (!pkpCertificate) return fault(violation(-100, 'the PKP does not verify'));
  const careful = ctx.careful;
  const broken =
    checkReceiptMessageAfterSchema(request, ctx.dates) ??
    (careful &&
      checkReceiptCarefully(request, careful, {
        verifiedBy: pkpCertificate,
        others: () => pkpVerifiersKnown(request, pkpCertificate, ctx.registry, careful.issuedCertificates),
      }));
  if (broken) return fault(broken);
  ctx.registry.rememberCertificate(CashRegisterCode, envelope.certificate.raw);
  const registration = ctx.registry.register(request, ctx.newReceiptId);
  if (registration.kind === 'conflict')
    return fault({ code: SIM_DUPLICATE_CODE, detail: registration.detail });
  if (ctx.careful) rememberAccepted({ operation: 'RegisterReceipt', request }, ctx.careful);
  return { kind: 'receipt', request, id: registration.id, repeated: registration.kind === 'repeat' };
}

/**
 * Spec §2.1 / §2.4: the PKP and the XML signature use the same key. The one exception: a message
 * sent later, after the certificate the PKP was made with has expired, is signed with the
 * currently valid certificate — so an earlier certificate of this register is tried only once it
 * has expired at processing time. Returns the certificate the PKP verifies with.
 */
function pkpVerifiedBy(
  request: SfsReceiptRequest,
  signing: X509Certificate,
  registry: SfsRegistry,
  processTime: Date,
): X509Certificate | undefined {
  const base = Buffer.from(pkpBaseString(request.data), 'utf8');
  const signature = Buffer.from(request.pkp, 'base64');
  if (rsaVerify('sha256', base, signing.publicKey, signature)) return signing;
  // Only when the signing certificate does not verify it: the register's earlier, expired ones.
  const expiredEarlier = registry
    .certificatesOf(request.data.CashRegisterCode)
    .map((der) => new X509Certificate(der))
    .filter((cert) => new Date(cert.validTo).getTime() < processTime.getTime());
  return expiredEarlier.find((cert) => rsaVerify('sha256', base, cert.publicKey, signature));
}

/**
 * For the careful check −908: every other certificate of this register the simulator knows than
 * the one the PKP verified with — those on its accepted messages, those issued to it (the embedded
 * simulator: every certificate in kasa's journal) — that verifies the PKP.
 */
function pkpVerifiersKnown(
  request: SfsReceiptRequest,
  verified: X509Certificate,
  registry: SfsRegistry,
  issued: ((cashRegisterCode: string) => readonly Buffer[]) | undefined,
): X509Certificate[] {
  const code = request.data.CashRegisterCode;
  const base = Buffer.from(pkpBaseString(request.data), 'utf8');
  const signature = Buffer.from(request.pkp, 'base64');
  const seen = new Set<string>([verified.raw.toString('base64')]);
  const found: X509Certificate[] = [];
  for (const der of [...registry.certificatesOf(code), ...(issued?.(code) ?? [])]) {
    const key = der.toString('base64');
    if (seen.has(key)) continue;
    seen.add(key);
    const cert = new X509Certificate(der);
    if (rsaVerify('sha256', base, cert.publicKey, signature)) found.push(cert);
  }
  return found;
}
