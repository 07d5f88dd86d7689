import { describe, expect, it } from 'vitest';
import { type CertificateInfo, summarizeCertificate } from './certificate.js';
import { certificateStatus } from './certificate-status.js';

const DAY = 86_400_000;

function cert(notBefore: string, notAfter: string) {
  const info: CertificateInfo = {
    der: new Uint8Array(),
    sha256: '0'.repeat(64),
    serialNumber: '2B0A',
    subject: [
      { oid: '2.5.4.3', name: 'CN', value: 'VATSK-1234567890 POKLADNICA 88812345678900001' },
      { oid: '2.5.4.11', name: 'OU', value: '88812345678900001' },
      { oid: '2.5.4.97', name: 'organizationIdentifier', value: 'VATSK-1234567890' },
      { oid: '2.5.4.6', name: 'C', value: 'SK' },
    ],
    issuer: [{ oid: '2.5.4.3', name: 'CN', value: 'TEST eKasa CA, Disig' }],
    notBefore: new Date(notBefore),
    notAfter: new Date(notAfter),
    publicKey: { algorithm: 'rsa', bits: 2048 },
  };
  return summarizeCertificate(info);
}

describe('certificate status (injected clock)', () => {
  const c = cert('2025-01-10T10:00:00Z', '2027-01-10T10:00:00Z');
  const notAfter = c.notAfter.getTime();

  it('is OK more than 30 days before expiry', () => {
    const s = certificateStatus(c, new Date(notAfter - 31 * DAY));
    expect(s).toMatchObject({
      state: 'OK',
      status: 'OK',
      showWarning: false,
      daysLeft: 31,
      notYetValid: false,
    });
    expect(s.expirationDate).toBe('10.01.2027 11:00:00'); // Europe/Bratislava, CET
    expect(s.subject).toBe(
      'CN=VATSK-1234567890 POKLADNICA 88812345678900001, OU=88812345678900001, organizationIdentifier=VATSK-1234567890, C=SK',
    );
    expect(s.issuer).toBe('CN=TEST eKasa CA\\, Disig');
    expect(s.serialNumber).toBe('2B0A');
  });

  it('is EXPIRES_SOON with showWarning inside the last 30 days', () => {
    expect(certificateStatus(c, new Date(notAfter - 30 * DAY))).toMatchObject({
      state: 'EXPIRES_SOON',
      showWarning: true,
      daysLeft: 30,
    });
    expect(certificateStatus(c, new Date(notAfter - 12 * DAY - 5000))).toMatchObject({
      state: 'EXPIRES_SOON',
      showWarning: true,
      daysLeft: 12,
    });
    expect(certificateStatus(c, new Date(notAfter))).toMatchObject({ state: 'EXPIRES_SOON', daysLeft: 0 });
  });

  it('is EXPIRED after notAfter and before notBefore', () => {
    expect(certificateStatus(c, new Date(notAfter + 1000))).toMatchObject({
      state: 'EXPIRED',
      showWarning: true,
      daysLeft: 0,
    });
    expect(certificateStatus(c, new Date('2024-12-01T00:00:00Z'))).toMatchObject({
      state: 'EXPIRED',
      notYetValid: true,
    });
  });
});
