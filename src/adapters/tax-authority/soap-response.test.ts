import { describe, expect, it } from 'vitest';
import { readResponseBody } from './soap-response.js';
import { soapBody } from './ws-security.js';
import { parseXml } from './xml-dom.js';

const envelope = (body: string) =>
  `<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope"><env:Body>${body}</env:Body></env:Envelope>`;
const read = (body: string) => readResponseBody(soapBody(parseXml(envelope(body)))!);

describe('readResponseBody', () => {
  it('reads EkasaErrorCode by local name in any namespace, on the Fault or inside it', () => {
    const v1 =
      '<env:Fault xmlns:e="http://financnasprava.sk/ekasa/schema/v1" e:EkasaErrorCode="-105"><env:Code><env:Value>env:Sender</env:Value></env:Code><env:Reason><env:Text xml:lang="sk-SK">Starý doklad</env:Text></env:Reason></env:Fault>';
    expect(read(v1)).toEqual({ kind: 'fault', code: -105, text: 'Starý doklad' });
    const inDetail =
      '<env:Fault><env:Code><env:Value>env:Sender</env:Value></env:Code><env:Reason><env:Text xml:lang="sk-SK">x</env:Text></env:Reason><env:Detail><d:Error xmlns:d="http://financnasprava.sk/ekasa/schema/v2" EkasaErrorCode="-2"/></env:Detail></env:Fault>';
    expect(read(inDetail)).toMatchObject({ kind: 'fault', code: -2 });
    expect(read('<env:Fault><env:Reason><env:Text>x</env:Text></env:Reason></env:Fault>')).toMatchObject({
      code: undefined,
    });
  });

  it('reads a receipt response with any prefix, and its warning', () => {
    const body =
      '<r:RegisterReceiptResponse xmlns:r="http://financnasprava.sk/ekasa/schema/v2"><r:Header Uuid="u" RequestUuid="q" ProcessDate="2026-03-02T10:15:31+01:00"/><r:ReceiptData Id="O-7DBCDA8A56EE426DBCDA8A56EE426D1A"/><r:Warning Code="-3">pozor</r:Warning></r:RegisterReceiptResponse>';
    expect(read(body)).toEqual({
      kind: 'RegisterReceipt',
      uuid: 'u',
      requestUuid: 'q',
      processDate: '2026-03-02T10:15:31+01:00',
      id: 'O-7DBCDA8A56EE426DBCDA8A56EE426D1A',
      warning: { code: -3, text: 'pozor' },
    });
  });

  it('accepts the integration Id form and refuses anything else', () => {
    const withId = (id: string) =>
      `<RegisterReceiptResponse xmlns="http://financnasprava.sk/ekasa/schema/v2"><Header Uuid="u" RequestUuid="q" ProcessDate="2026-03-02T10:15:31+01:00"/><ReceiptData Id="${id}"/></RegisterReceiptResponse>`;
    expect(read(withId('O-0123456789abcdef0123456789a-TEST')).kind).toBe('RegisterReceipt');
    expect(read(withId('X-123')).kind).toBe('invalid');
    expect(read('<x:Other xmlns:x="urn:x"/>').kind).toBe('invalid');
  });
});
