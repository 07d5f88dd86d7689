import { z } from 'zod';
import type { RegisterStatus } from '../../core/services/register-status.js';
import { COMPONENTS } from '../../core/services/register-status.js';
import type { SwIdReport } from '../../core/services/sw-id-source.js';
import type { RoutePlugin } from '../app.js';
import { errorResponses } from '../schemas/common.js';

export interface VersionInfo {
  product: string;
  version: string;
  apiVersion: string;
  buildCommit?: string;
  nodeVersion: string;
}

/** The SwId members of `/api/version` and `/api/status/get` (ADR 0421). */
const swIdFields = {
  swId: z
    .string()
    .optional()
    .describe(
      'SwId sent to the SFS: the certified one (--sw-id), or derived from the software and CHDÚ names and versions; absent while the CHDÚ has not reported its version',
    ),
  swIdOrigin: z
    .enum(['configured', 'derived', 'pending'])
    .describe(
      'Always present: configured (--sw-id, sent as given), derived (swIdDerivedFrom), pending (no swId yet)',
    ),
  swIdDerivedFrom: z
    .string()
    .optional()
    .describe(
      'For a derived SwId: the text whose SHA-1 it is (manufacturer|product|CHDÚ|version|CHDÚ version)',
    ),
};

const VersionResponse = z
  .object({
    resultCode: z.literal(0),
    product: z.string(),
    version: z.string().describe('kasa version (package.json)'),
    apiVersion: z.literal('1.7'),
    ...swIdFields,
    buildCommit: z.string().optional().describe('git commit the running code was built from, when known'),
    nodeVersion: z.string(),
  })
  .meta({
    id: 'VersionResponse',
    examples: [
      {
        resultCode: 0,
        product: 'kasa',
        version: '0.1.0',
        apiVersion: '1.7',
        swId: '5A1B0E3C7F4D2A19B8C6E0F1D2A3B4C5D6E7F809',
        swIdOrigin: 'configured',
        buildCommit: 'c0ffee1',
        nodeVersion: 'v20.20.2',
      },
    ],
  });

const ComponentStatus = z.object({
  component: z.enum(COMPONENTS),
  state: z.enum(['OK', 'WARNING', 'ERROR', 'NOT_CONFIGURED']),
  reasonCode: z.number().int().describe('result code of the cause, 0 when OK'),
  reason: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});

const StatusResponse = z
  .object({
    resultCode: z.literal(0),
    state: z.string().describe('READY, or the name of the result code clients now get'),
    reasonCode: z.number().int(),
    reason: z.string(),
    components: z.array(ComponentStatus),
    ...swIdFields,
  })
  .meta({
    id: 'StatusResponse',
    examples: [
      {
        resultCode: 0,
        state: 'MERCHANT_CERTIFICATE_ERROR',
        reasonCode: 402,
        reason:
          'No merchant is stored: load the identification and authentication data with POST /api/merchant/store.',
        components: [{ component: 'CHDU', state: 'OK', reasonCode: 0, reason: 'The CHDÚ answers.' }],
        swIdOrigin: 'pending',
      },
    ],
  });

/** `GET /api/version` and `GET /api/status/get`: always answered, read-only. */
export function systemRoutes(deps: {
  version: () => VersionInfo & SwIdReport;
  status: RegisterStatus;
}): RoutePlugin {
  return (app) => {
    app.get(
      '/api/version',
      {
        config: { availability: 'always' },
        schema: {
          tags: ['system'],
          summary: 'Product and API version',
          response: { 200: VersionResponse, ...errorResponses },
        },
      },
      async () => ({ resultCode: 0 as const, ...deps.version(), apiVersion: '1.7' as const }),
    );
    app.get(
      '/api/status/get',
      {
        config: { availability: 'always' },
        schema: {
          tags: ['system'],
          summary: 'Overall state and one entry per component',
          response: { 200: StatusResponse, ...errorResponses },
        },
      },
      async () => {
        const { swId, swIdOrigin, swIdDerivedFrom } = deps.version();
        return {
          resultCode: 0 as const,
          ...(await deps.status.report()),
          ...(swId === undefined ? {} : { swId }),
          swIdOrigin,
          ...(swIdDerivedFrom === undefined ? {} : { swIdDerivedFrom }),
        };
      },
    );
  };
}
