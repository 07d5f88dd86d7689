import { X509Certificate } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testMerchant } from '../../../test/support/merchant-keys.js';
import { hasOfficialFixtures, official, SHARED_MISSING } from '../../../test/support/shared-fixtures.js';
import { hasXmlsec1, XMLSEC_MISSING, xmlsecVerifies } from '../../../test/support/xmlsec.js';
import { BodyTemplate } from './body-template.js';
import { CertificateCache } from './certificate-cache.js';
import { signEnvelope, verifyEnvelope } from './ws-security.js';
import { parseXml } from './xml-dom.js';

const merchant = testMerchant();
const content =
  '<ekasa:RegisterLocationRequest xmlns:ekasa="http://financnasprava.sk/ekasa/schema/v2">' +
  '<ekasa:Header RequestDate="2026-03-02T10:15:31+01:00" SendingCount="1" SwId="8639BA17A8EEEF50FF559B90D36AE13B5E93DCDE" Uuid="3f0c2a7e-5b1d-4c8e-9a2f-6d1e0b7c4a11"/>' +
  '<ekasa:LocationData CashRegisterCode="88812345678900001" CreateDate="2026-03-02T10:15:30+01:00" Dic="1234567890">' +
  '<ekasa:Location><ekasa:Other>Stánok pri Dunaji &amp; okolie</ekasa:Other></ekasa:Location></ekasa:LocationData>' +
  '</ekasa:RegisterLocationRequest>';

describe('signEnvelope', () => {
  it.skipIf(!hasXmlsec1)(
    `is verified by xmlsec1 and fails after one changed byte in the Body ${hasXmlsec1 ? '' : ` (skipped: ${XMLSEC_MISSING})`}`,
    () => {
      const xml = signEnvelope(content, merchant.signer);
      expect(xmlsecVerifies(xml, merchant.certPem)).toBe(true);
      const tampered = xml.replace('Dic="1234567890"', 'Dic="1234567891"');
      expect(tampered).not.toBe(xml);
      expect(xmlsecVerifies(tampered, merchant.certPem)).toBe(false);
    },
  );

  it('is verified by verifyEnvelope, with the signing certificate', () => {
    const xml = signEnvelope(content, merchant.signer);
    const result = verifyEnvelope(xml);
    expect(result.ok).toBe(true);
    if (result.ok)
      expect(result.certificate.raw.equals(new X509Certificate(merchant.certPem).raw)).toBe(true);
  });

  it.skipIf(!hasXmlsec1)(
    `signs Bodies whose canonical form differs from their text (escapes, namespaces, empty elements) as xmlsec1 canonicalizes them${hasXmlsec1 ? '' : ` (skipped: ${XMLSEC_MISSING})`}`,
    () => {
      // The Body is canonicalized alone, outside the envelope (capability 13): these are the cases where
      // exclusive C14N output differs from the text, so a wrong context would break the digest.
      const tricky =
        '<ekasa:R xmlns:ekasa="http://financnasprava.sk/ekasa/schema/v2" xmlns:unused="urn:x" b="&quot;a&apos;\t&#9;&#10;&gt;" a="1">' +
        '<ekasa:E/><x:Y xmlns:x="urn:y" xmlns="urn:default"><Z z="&lt;&amp;"/></x:Y>' +
        '<ekasa:T>a &amp; b &lt; c &gt; d &#13; "e" \'f\'<![CDATA[<g>&]]></ekasa:T>' +
        '<soapenv:Inner xmlns:soapenv="http://www.w3.org/2003/05/soap-envelope"/>' +
        '</ekasa:R>';
      const xml = signEnvelope(tricky, merchant.signer);
      expect(verifyEnvelope(xml).ok).toBe(true);
      expect(xmlsecVerifies(xml, merchant.certPem)).toBe(true);
    },
  );

  it('signs a filled template (canonical form worked out once) with the digest of its filled text', () => {
    // Attributes out of C14N order, unused and default namespace declarations, an empty element:
    // where each hole lands in the canonical form is read from the canonicalizer, not assumed.
    const template = BodyTemplate.of(
      3,
      (hole) =>
        `<ekasa:R xmlns:ekasa="http://financnasprava.sk/ekasa/schema/v2" xmlns:unused="urn:x" z="${hole(0)}" a="1">` +
        `<ekasa:H Uuid="${hole(1)}" ProcessDate="2026-01-01T00:00:00+01:00"/><ekasa:T>${hole(2)}</ekasa:T></ekasa:R>`,
    );
    for (const values of [
      ['O-0123ABCD', '3f0c2a7e-5b1d-4c8e-9a2f-6d1e0b7c4a11', '2026-03-02T10:15:31+01:00'],
      ['', 'x', 'a.b_c+d:e'],
    ]) {
      const filled = signEnvelope(template.with(values), merchant.signer);
      // The Body sent is the template filled in; verifyEnvelope canonicalizes that Body from the
      // parsed envelope (the ordinary way) and checks the digest worked out from the template.
      expect(filled).toContain(`wsu:Id="${/<soapenv:Body wsu:Id="([^"]+)"/.exec(filled)![1]}" xmlns:wsu=`);
      expect(filled).toContain(`>${template.fill(values)}</soapenv:Body>`);
      expect(verifyEnvelope(filled).ok).toBe(true);
      // A changed value breaks it: the digest covers the values, not only the template.
      expect(verifyEnvelope(filled.replace(`Uuid="${values[1]}"`, 'Uuid="other"')).ok).toBe(false);
      if (hasXmlsec1) expect(xmlsecVerifies(filled, merchant.certPem)).toBe(true);
    }
  });

  it('refuses a template value C14N or escaping would change, and a template without its holes', () => {
    const template = BodyTemplate.of(1, (hole) => `<a xmlns="urn:a" v="${hole(0)}"/>`);
    for (const bad of ['a&b', 'a<b', 'a"b', 'a b', 'a\rb', "a'b", 'a>b'])
      expect(() => template.with([bad])).toThrow();
    expect(() => BodyTemplate.of(2, (hole) => `<a v="${hole(0)}"/>`)).toThrow();
  });

  it('signs again with new ids on every call', () => {
    const a = signEnvelope(content, merchant.signer);
    const b = signEnvelope(content, merchant.signer);
    const bodyId = (xml: string) => /<soapenv:Body wsu:Id="([^"]+)"/.exec(xml)![1];
    expect(bodyId(a)).not.toBe(bodyId(b));
  });

  it('starts with the XML declaration and uses the sample PrefixLists', () => {
    const xml = signEnvelope(content, merchant.signer);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<soapenv:Envelope')).toBe(true);
    expect(xml).toContain('PrefixList="soapenv"');
    expect(xml).toContain('PrefixList=""');
  });
});

describe('verifyEnvelope', () => {
  it.skipIf(!hasOfficialFixtures)(
    `accepts every official sample byte-exact, refuses a changed byte ${hasOfficialFixtures ? '' : ` (skipped: ${SHARED_MISSING})`}`,
    () => {
      const files = readdirSync(official('soap-samples')).filter((f) => f.endsWith('.xml'));
      expect(files.length).toBe(10);
      for (const file of files) {
        const xml = readFileSync(official('soap-samples', file), 'utf8');
        expect(verifyEnvelope(xml).ok, file).toBe(true);
        const tampered = xml.replace(
          'CashRegisterCode="88812345678900001"',
          'CashRegisterCode="88812345678900002"',
        );
        const result = verifyEnvelope(tampered);
        expect(result.ok ? 'ok' : result.failure, file).toBe('signature');
      }
    },
  );

  it('refuses a second element posing with the Body id (signature wrapping)', () => {
    const xml = signEnvelope(content, merchant.signer);
    const bodyId = /<soapenv:Body wsu:Id="([^"]+)"/.exec(xml)![1]!;
    const wrapped = xml.replace(
      '</wsse:Security>',
      `</wsse:Security><x:Fake xmlns:x="urn:x" xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd" wsu:Id="${bodyId}"/>`,
    );
    const result = verifyEnvelope(wrapped);
    expect(result.ok ? 'ok' : result.failure).toBe('signature');
  });

  it('tells a missing signature, a bad certificate and malformed XML apart', () => {
    const xml = signEnvelope(content, merchant.signer);
    const unsigned = xml.replace(/<soapenv:Header>.*<\/soapenv:Header>/s, '');
    const r1 = verifyEnvelope(unsigned);
    expect(r1.ok ? 'ok' : r1.failure).toBe('missing-signature');
    const badToken = xml.replace(/(<wsse:BinarySecurityToken[^>]*>)[^<]+/, '$1AAAA');
    const r2 = verifyEnvelope(badToken);
    expect(r2.ok ? 'ok' : r2.failure).toBe('certificate-format');
    const r3 = verifyEnvelope(xml.slice(0, -20));
    expect(r3.ok ? 'ok' : r3.failure).toBe('malformed');
    const r4 = verifyEnvelope('<!DOCTYPE x [<!ENTITY a "b">]><x/>');
    expect(r4.ok ? 'ok' : r4.failure).toBe('malformed');
  });

  it('verifies a document parsed already, reading its certificate once through a cache', () => {
    const xml = signEnvelope(content, merchant.signer);
    const certificates = new CertificateCache();
    const first = verifyEnvelope(parseXml(xml), { certificates });
    const second = verifyEnvelope(signEnvelope(content, merchant.signer), { certificates });
    expect(first.ok && second.ok).toBe(true);
    if (first.ok && second.ok) expect(second.certificate).toBe(first.certificate);
    const tampered = xml.replace('Dic="1234567890"', 'Dic="1234567891"');
    expect(verifyEnvelope(parseXml(tampered), { certificates })).toMatchObject({
      ok: false,
      failure: 'signature',
    });
  });

  it('looks a token text up as it stands: only the very text read before skips its Base64 check', () => {
    const xml = signEnvelope(content, merchant.signer);
    const certificates = new CertificateCache();
    const first = verifyEnvelope(xml, { certificates });
    expect(first.ok).toBe(true);
    const token = /<wsse:BinarySecurityToken[^>]*>([^<]+)</.exec(xml)![1]!;
    expect(certificates.known(token)).toBe(first.ok ? first.certificate : undefined);
    const withToken = (text: string) =>
      signEnvelope(content, merchant.signer).replace(/(<wsse:BinarySecurityToken[^>]*>)[^<]+/, `$1${text}`);
    // The same certificate with line breaks in its Base64: checked and read as another text, same answer.
    const wrapped = token.replace(/(.{64})/g, '$1\n');
    const second = verifyEnvelope(withToken(wrapped), { certificates });
    expect(second.ok).toBe(true);
    if (first.ok && second.ok) expect(second.certificate.raw.equals(first.certificate.raw)).toBe(true);
    // A text that differs from a known one by a character outside Base64 is checked, not looked up
    // loosely: Buffer.from would read it as the same certificate, the SFS profile does not.
    for (const spoiled of [`${token.slice(0, 10)}!${token.slice(10)}`, `${token}*`, `-${token}`]) {
      expect(certificates.known(spoiled)).toBeUndefined();
      const result = verifyEnvelope(withToken(spoiled), { certificates });
      expect(result.ok ? 'ok' : result.reason).toBe('the token is not Base64');
    }
  });

  it('refuses a signature made by another key than the token certificate', () => {
    const other = testMerchant({ ca: merchant.ca });
    const xml = signEnvelope(content, other.signer);
    const swapped = xml.replace(
      /(<wsse:BinarySecurityToken[^>]*>)[^<]+/,
      `$1${new X509Certificate(merchant.certPem).raw.toString('base64')}`,
    );
    const result = verifyEnvelope(swapped);
    expect(result.ok ? 'ok' : result.failure).toBe('signature');
  });
});
