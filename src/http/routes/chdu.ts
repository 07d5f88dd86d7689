import { z } from 'zod';
import type { ChduInfo } from '../../core/services/chdu-info.js';
import type { RoutePlugin } from '../app.js';
import { errorResponses } from '../schemas/common.js';

const ChduInfoResponse = z
  .object({
    resultCode: z.literal(0),
    model: z.string().describe('CHDÚ model or adapter, e.g. `CHDU Lite`, `kasa image file`'),
    target: z.string().describe('the --chdu target'),
    serial: z.number().int().describe('device serial number'),
    volumeSerial: z.number().int().describe('serial of the logical volume'),
    firmwareVersion: z.string(),
    protocolVersion: z.string().describe('CHDU Lite protocol version, e.g. `1.3`'),
    blockDataSize: z.number().int().describe('data bytes per block'),
    capacityBlocks: z.number().int(),
    usedBlocks: z.number().int(),
    freeBlocks: z.number().int(),
    capacityBytes: z.number().int(),
    usedBytes: z.number().int(),
    freeBytes: z.number().int(),
    recordCount: z.number().int().describe('journal records on the CHDÚ'),
    storageOk: z.boolean(),
    printerReady: z.boolean().describe('the printer behind the CHDÚ (CHDU Lite pass-through) is ready'),
    locked: z.boolean().describe('permanently read-only'),
    lastWriteAt: z.string().optional().describe('when the last record was written (Europe/Bratislava)'),
    tornBytesAtOpen: z
      .number()
      .int()
      .optional()
      .describe(
        'image file only: bytes after the last complete block when the image was opened (a write torn by a crash, or a damaged last block); 0 normally',
      ),
    printer: z
      .object({
        adapter: z.string(),
        target: z.string(),
        ready: z.boolean(),
        faultCode: z.number().int().optional(),
      })
      .optional()
      .describe(
        "the register's printer, as GET /api/printer reports it (printerReady above is the CHDÚ's own flag)",
      ),
    index: z.object({
      state: z
        .enum(['current', 'behind', 'ahead', 'mismatch', 'missing'])
        .describe(
          'current: at the head; behind: replay pending; ahead: records the CHDÚ lacks (acknowledged records missing, 201 — or an index of another CHDÚ, rebuilt); mismatch: rebuilt at the next check; missing: no index',
        ),
      highWaterMark: z.number().int().describe('last journal record in the index'),
    }),
  })
  .meta({
    id: 'ChduInfoResponse',
    examples: [
      {
        resultCode: 0,
        model: 'kasa image file',
        target: 'image:/var/lib/kasa/chdu.img',
        serial: 305419896,
        volumeSerial: 1772442930,
        firmwareVersion: 'kasa-image 1.0',
        protocolVersion: '1.3',
        blockDataSize: 505,
        capacityBlocks: 2000000,
        usedBlocks: 1234,
        freeBlocks: 1998766,
        capacityBytes: 1010000000,
        usedBytes: 623170,
        freeBytes: 1009376830,
        recordCount: 412,
        storageOk: true,
        printerReady: false,
        locked: false,
        lastWriteAt: '2026-03-02T10:15:30+01:00',
        tornBytesAtOpen: 0,
        index: { state: 'current', highWaterMark: 412 },
      },
    ],
  });

/** `GET /api/chduinfo`: always answered (ADR 0008 §11), read-only. */
export function chduRoutes(deps: {
  info: () => Promise<
    ChduInfo & { printer?: { adapter: string; target: string; ready: boolean; faultCode?: number } }
  >;
}): RoutePlugin {
  return (app) => {
    app.get(
      '/api/chduinfo',
      {
        config: { availability: 'always' },
        schema: {
          tags: ['system'],
          summary: 'The protected data storage (CHDÚ): model, serials, capacity, use, index state',
          response: { 200: ChduInfoResponse, ...errorResponses },
        },
      },
      async () => ({ resultCode: 0 as const, ...(await deps.info()) }),
    );
  };
}
