import { formatApiDateTime } from '../time.js';
import type { CertificateSummary } from './certificate.js';

/** `MerchantCertificateStatus.status` of the v1.7 API (API v1.7 text, enumerations, model MerchantCertificateStatus). */
export type CertificateState = 'OK' | 'EXPIRES_SOON' | 'EXPIRED';

/**
 * Authentication data must be replaced within the last 30 days before expiry
 * (the rule as vendors' public help pages give it, e.g. portos.sk/en/vymena-autentifikacnych-udajov,
 * mbproservis.sk/ekasa_certifikat_autentifikacne_udaje.htm); that window is the EXPIRES_SOON state.
 */
export const RENEWAL_WINDOW_DAYS = 30;

const DAY_MS = 86_400_000;

export interface CertificateStatus {
  state: CertificateState;
  /** Same as `state`, under the field name of the API's MerchantCertificateStatus. */
  status: CertificateState;
  /** notAfter in the API date format (`dd.MM.yyyy HH:mm:ss`, Europe/Bratislava). */
  expirationDate: string;
  /** True inside the renewal window and after expiry: the POS should tell the user. */
  showWarning: boolean;
  /** Whole days until notAfter (rounded down), 0 once expired. */
  daysLeft: number;
  /** True when the clock is before notBefore (then `state` is EXPIRED: not usable either). */
  notYetValid: boolean;
  subject: string;
  issuer: string;
  serialNumber: string;
  validFrom: string;
}

/** The status of a certificate at `now` (the caller's injected Clock). */
export function certificateStatus(cert: CertificateSummary, now: Date): CertificateStatus {
  const left = cert.notAfter.getTime() - now.getTime();
  const notYetValid = now.getTime() < cert.notBefore.getTime();
  const state: CertificateState =
    left < 0 || notYetValid ? 'EXPIRED' : left <= RENEWAL_WINDOW_DAYS * DAY_MS ? 'EXPIRES_SOON' : 'OK';
  return {
    state,
    status: state,
    expirationDate: formatApiDateTime(cert.notAfter),
    showWarning: state !== 'OK',
    daysLeft: left < 0 ? 0 : Math.floor(left / DAY_MS),
    notYetValid,
    subject: cert.subject,
    issuer: cert.issuer,
    serialNumber: cert.serialNumber,
    validFrom: formatApiDateTime(cert.notBefore),
  };
}
