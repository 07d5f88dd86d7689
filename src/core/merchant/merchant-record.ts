import type { ApiPhysicalAddress, MerchantRecord } from '../journal/records.js';
import { formatSfsDateTime, parseSfsDateTime } from '../time.js';
import { type CertificateInfo, type CertificateSummary, summarizeCertificate } from './certificate.js';
import { type CertificateStatus, certificateStatus } from './certificate-status.js';
import type { IdentityData, PhysicalAddress } from './identity-data.js';

/**
 * The merchant as written into the CHDÚ (record type `merchant`): the identification data, the
 * certificate and its summary — never a password or a key (capability 4, "Where the secrets live").
 */
export function merchantRecord(
  identity: IdentityData,
  identificationXml: string,
  certificate: CertificateInfo,
  demo: boolean,
): MerchantRecord {
  const ou = identity.organizationUnit;
  const summary = summarizeCertificate(certificate);
  return {
    dic: identity.dic,
    ...(identity.ico === undefined ? {} : { ico: identity.ico }),
    ...(identity.icDph === undefined ? {} : { icDph: identity.icDph }),
    corporateFullName: identity.corporateBodyFullName,
    physicalAddress: apiAddress(identity.physicalAddress),
    organizationUnit: {
      ...(ou.organizationUnitName === undefined ? {} : { name: ou.organizationUnitName }),
      cashRegisterCode: ou.cashRegisterCode,
      cashRegisterType: ou.cashRegisterType,
      ...(ou.physicalAddress === undefined ? {} : { physicalAddress: apiAddress(ou.physicalAddress) }),
    },
    identificationXml,
    certificate: base64(certificate.der),
    certificateSha256: certificate.sha256,
    notBefore: formatSfsDateTime(summary.notBefore),
    notAfter: formatSfsDateTime(summary.notAfter),
    certificateSubject: summary.subject,
    certificateIssuer: summary.issuer,
    certificateSerialNumber: summary.serialNumber,
    demo,
  };
}

/** The certificate summary of a stored merchant record. */
export function recordCertificate(record: MerchantRecord): CertificateSummary {
  return {
    subject: record.certificateSubject ?? '',
    issuer: record.certificateIssuer ?? '',
    serialNumber: record.certificateSerialNumber ?? '',
    notBefore: parseSfsDateTime(record.notBefore) ?? new Date(Number.NaN),
    notAfter: parseSfsDateTime(record.notAfter) ?? new Date(Number.NaN),
  };
}

/** `Merchant` of the API (API v1.7 text, model OrganizationUnit to Merchant) plus the certificate summary and demo flag. */
export interface MerchantView {
  /** Journal record number of this merchant record. */
  id: number;
  corporateFullName: string;
  ico?: string;
  dic: string;
  icDph?: string;
  physicalAddress: ApiPhysicalAddress;
  organizationUnit: {
    name?: string;
    cashRegisterCode: string;
    cashRegisterType: 'STANDARD' | 'PORTABLE';
    location?: { physicalAddress: ApiPhysicalAddress };
  };
  /** True when the merchant was created by demo mode: its receipts are demos, not fiscal. */
  demo: boolean;
  certificate: CertificateStatus & { sha256: string };
}

export function merchantView(recordNo: number, record: MerchantRecord, now: Date): MerchantView {
  const ou = record.organizationUnit;
  return {
    id: recordNo,
    corporateFullName: record.corporateFullName,
    ...(record.ico === undefined ? {} : { ico: record.ico }),
    dic: record.dic,
    ...(record.icDph === undefined ? {} : { icDph: record.icDph }),
    physicalAddress: record.physicalAddress,
    organizationUnit: {
      ...(ou.name === undefined ? {} : { name: ou.name }),
      cashRegisterCode: ou.cashRegisterCode,
      cashRegisterType: ou.cashRegisterType,
      ...(ou.physicalAddress === undefined ? {} : { location: { physicalAddress: ou.physicalAddress } }),
    },
    demo: record.demo,
    certificate: { ...certificateStatus(recordCertificate(record), now), sha256: record.certificateSha256 },
  };
}

function apiAddress(a: PhysicalAddress): ApiPhysicalAddress {
  return {
    country: a.country,
    municipality: a.municipality,
    street: a.streetName,
    ...(a.buildingNumber === undefined ? {} : { buildingNumber: a.buildingNumber }),
    ...(a.propertyRegistrationNumber === undefined
      ? {}
      : { propertyRegistrationNumber: a.propertyRegistrationNumber }),
    ...(a.postalCode === undefined ? {} : { postalCode: a.postalCode }),
  };
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}
