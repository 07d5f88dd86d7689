import { z } from 'zod';
import type { Clock } from '../../core/ports/clock.js';
import type { JournalIndex } from '../../core/ports/journal-index.js';
import { getMerchant } from '../../core/services/get-merchant.js';
import { merchantCertificateStatus } from '../../core/services/merchant-certificate-status.js';
import type { MerchantSession } from '../../core/services/merchant-session.js';
import type { StoreMerchant } from '../../core/services/store-merchant.js';
import type { RoutePlugin } from '../app.js';
import { errorResponses } from '../schemas/common.js';
import { exampleMerchant } from '../schemas/examples.js';
import { certificateFields, Merchant } from '../schemas/merchant.js';
import { strictRequest } from '../schemas/strict-request.js';

const MerchantResponse = z.object({ resultCode: z.literal(0), merchant: Merchant }).meta({
  id: 'MerchantResponse',
  examples: [
    {
      resultCode: 0,
      merchant: {
        id: 1,
        corporateFullName: 'Finančná správa i.n.t.',
        ico: '76543210',
        dic: '1234567890',
        icDph: 'SK1234567890',
        physicalAddress: {
          country: 'Slovenská republika',
          municipality: 'Štrkovec',
          street: 'Horná',
          buildingNumber: '7',
          propertyRegistrationNumber: '560',
          postalCode: '98045',
        },
        organizationUnit: {
          name: 'nepovinný názov predajne',
          cashRegisterCode: '88812345678900001',
          cashRegisterType: 'PORTABLE',
        },
        demo: false,
        certificate: {
          state: 'OK',
          status: 'OK',
          expirationDate: '15.11.2026 11:03:57',
          validFrom: '15.11.2024 11:03:57',
          showWarning: false,
          daysLeft: 120,
          notYetValid: false,
          subject:
            'organizationIdentifier=VATSK-1234567890, C=SK, OU=88812345678900001, CN=VATSK-1234567890 POKLADNICA 88812345678900001',
          issuer: 'C=SK, O=Disig a.s., CN=TEST eKasa CA',
          serialNumber: '01E87D95EFA0A25AC7325C000000000000000091',
          sha256: '…',
        },
      },
    },
  ],
});

const StoreMerchantRequest = strictRequest(
  {
    identificationData: z
      .string()
      .min(1)
      .describe('the identification data XML file (IdentityData) as a string'),
    authenticationData: z.string().min(1).describe('the authentication data XML file (AuthData) as a string'),
    keyStorePassword: z.string().describe('password of the PKCS#12 keystore in the authentication data'),
    privateKeyPassword: z
      .string()
      .optional()
      .describe('password of the private key; default: keyStorePassword'),
  },
  'StoreMerchantRequest',
).meta({
  id: 'StoreMerchantRequest',
  examples: [
    {
      identificationData:
        '<?xml version="1.0" encoding="UTF-8"?><eu:IdentityData xmlns:eu="http://financnasprava.sk/ekasa/udaje/schema/v2">…</eu:IdentityData>',
      authenticationData:
        '<?xml version="1.0" encoding="UTF-8"?><eu:AuthData xmlns:eu="http://financnasprava.sk/ekasa/udaje/schema/v2"><eu:KeyStoreType>PKCS12</eu:KeyStoreType><eu:Data>MIIK…</eu:Data><eu:CertificateAlias>88812345678900001</eu:CertificateAlias></eu:AuthData>',
      keyStorePassword: '88812345678900001',
    },
  ],
});

const GetMerchantRequest = strictRequest({})
  .describe('an empty object {}: the merchant in force')
  .meta({ id: 'GetMerchantRequest', examples: [{}] });

const CertificateStatusResponse = z
  .object({
    resultCode: z.literal(0),
    ...certificateFields,
    dic: z.string(),
    cashRegisterCode: z.string(),
    demo: z.boolean(),
    usable: z
      .boolean()
      .describe('false when the register cannot sign now; `problem` says why and what to do'),
    problem: z.string().optional(),
    problemCode: z.number().int().optional().describe('the result code fiscal requests get now (402, 405)'),
  })
  .meta({
    id: 'CertificateStatusResponse',
    examples: [
      {
        resultCode: 0,
        ...exampleMerchant.certificate,
        state: 'EXPIRES_SOON',
        status: 'EXPIRES_SOON',
        showWarning: true,
        daysLeft: 12,
        dic: exampleMerchant.dic,
        cashRegisterCode: exampleMerchant.organizationUnit.cashRegisterCode,
        demo: false,
        usable: true,
      },
    ],
  });

export interface MerchantRouteDeps {
  store: StoreMerchant;
  index: JournalIndex;
  session: MerchantSession;
  clock: Clock;
}

/**
 * `POST /api/merchant/store`, `POST /api/merchant/get`, `GET /api/merchant/status`: always
 * answered, even while the register cannot work (ADR 0008 §11). Failures are ErrorResponses with
 * 400–405 (docs/merchant.md); none stored is 402 on get and status.
 */
export function merchantRoutes(deps: MerchantRouteDeps): RoutePlugin {
  return (app) => {
    app.post(
      '/api/merchant/store',
      {
        config: { availability: 'always' },
        schema: {
          tags: ['merchant'],
          summary: 'Load the merchant identification and authentication data (renewal: same DIČ)',
          body: StoreMerchantRequest,
          response: { 200: MerchantResponse, ...errorResponses },
        },
      },
      async (request) => ({ resultCode: 0 as const, merchant: await deps.store.execute(request.body) }),
    );
    app.post(
      '/api/merchant/get',
      {
        config: { availability: 'always' },
        schema: {
          tags: ['merchant'],
          summary: 'The merchant stored in the CHDÚ',
          body: GetMerchantRequest,
          response: { 200: MerchantResponse, ...errorResponses },
        },
      },
      async () => ({ resultCode: 0 as const, merchant: getMerchant(deps) }),
    );
    app.get(
      '/api/merchant/status',
      {
        config: { availability: 'always' },
        schema: {
          tags: ['merchant'],
          summary: 'Merchant certificate status: OK, EXPIRES_SOON (last 30 days), EXPIRED',
          response: { 200: CertificateStatusResponse, ...errorResponses },
        },
      },
      async () => ({ resultCode: 0 as const, ...merchantCertificateStatus(deps) }),
    );
  };
}
