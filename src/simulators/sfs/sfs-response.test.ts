import { describe, expect, it } from 'vitest';
import {
  locationResponseBody,
  locationResponseElement,
  receiptResponseBody,
  receiptResponseElement,
} from './sfs-response.js';

const header = {
  uuid: '0b3d1c52-9a57-4f7e-8a39-0f2c8e1f4d21',
  requestUuid: '3F0C2A7E-5B1D-4C8E-9A2F-6D1E0B7C4A11',
  processDate: '2026-03-02T10:15:31+01:00',
};
const text = (body: ReturnType<typeof receiptResponseBody>) =>
  typeof body === 'string' ? body : body.template.fill(body.values);

describe('the simulator answers from templates (ADR 1106)', () => {
  it('writes the very text the full builder writes', () => {
    const receipt = receiptResponseBody(header, 'O-0123456789ABCDEF0123456789ABCDEF');
    expect(typeof receipt).not.toBe('string');
    expect(text(receipt)).toBe(receiptResponseElement(header, 'O-0123456789ABCDEF0123456789ABCDEF'));
    const location = locationResponseBody(header);
    expect(typeof location).not.toBe('string');
    expect(text(location)).toBe(locationResponseElement(header));
  });

  it('builds in full an answer with a warning or a value the template cannot take', () => {
    const warning = { code: 1, text: 'a & b' };
    expect(receiptResponseBody(header, 'O-1', warning)).toBe(receiptResponseElement(header, 'O-1', warning));
    const odd = { ...header, requestUuid: 'a"b' };
    expect(receiptResponseBody(odd, 'O-1')).toBe(receiptResponseElement(odd, 'O-1'));
    expect(locationResponseBody(header, warning)).toBe(locationResponseElement(header, warning));
  });
});
