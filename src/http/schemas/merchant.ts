import { z } from 'zod';

/** The merchant as every endpoint returns it (API v1.7 text, model OrganizationUnit to MerchantCertificateStatus). */
export const PhysicalAddress = z
  .object({
    country: z.string().optional(),
    municipality: z.string(),
    street: z.string(),
    buildingNumber: z.string().optional(),
    propertyRegistrationNumber: z.string().optional(),
    postalCode: z.string().optional(),
  })
  .meta({ id: 'PhysicalAddress' });

export const CertificateState = z.enum(['OK', 'EXPIRES_SOON', 'EXPIRED']);

export const certificateFields = {
  state: CertificateState.describe(
    'OK: more than 30 days left; EXPIRES_SOON: the last 30 days; EXPIRED: not usable',
  ),
  status: CertificateState.describe('the same as state (MerchantCertificateStatus.status)'),
  expirationDate: z.string().describe('certificate notAfter, dd.MM.yyyy HH:mm:ss Europe/Bratislava'),
  validFrom: z.string().describe('certificate notBefore, dd.MM.yyyy HH:mm:ss'),
  showWarning: z.boolean().describe('true in the last 30 days (renewal window) and after expiry'),
  daysLeft: z.number().int().describe('whole days until expiry, 0 once expired'),
  notYetValid: z.boolean(),
  subject: z.string(),
  issuer: z.string(),
  serialNumber: z.string().describe('upper-case hex'),
};

export const Merchant = z
  .object({
    id: z.number().int().describe('CHDÚ record number of this merchant record'),
    corporateFullName: z.string(),
    ico: z.string().optional(),
    dic: z.string(),
    icDph: z.string().optional().describe('present for a VAT payer'),
    physicalAddress: PhysicalAddress,
    organizationUnit: z
      .object({
        name: z.string().optional(),
        cashRegisterCode: z.string(),
        cashRegisterType: z.enum(['STANDARD', 'PORTABLE']),
        location: z.object({ physicalAddress: PhysicalAddress }).optional(),
      })
      .meta({ id: 'OrganizationUnit' }),
    demo: z.boolean().describe('true for the demo merchant: its receipts are demos, not fiscal documents'),
    certificate: z.object({ ...certificateFields, sha256: z.string() }).meta({ id: 'MerchantCertificate' }),
  })
  .meta({ id: 'Merchant' });
