import { z } from 'zod';
import { MAX_PRINT_DELAY_MS, MIN_WINDOW_BYTES } from '../../core/printing/print-pacing.js';
import { strictRequest } from './strict-request.js';

/**
 * Schemas of the printer endpoints (capability 11): `GET /api/printer`, `POST /api/print`,
 * `POST /api/drawer/open`, `POST /api/image/preview|store`. Field names follow the API text where
 * it has them (`printData`, `imageData`, `numberOfCharInRow`, `windowSize`, `printDelay`).
 */

export const PrintOptionsFields = {
  windowSize: z
    .number()
    .int()
    .min(0)
    .max(10_000_000)
    .refine((n) => n === 0 || n >= MIN_WINDOW_BYTES, {
      message: `must be 0 (one window) or at least ${MIN_WINDOW_BYTES} bytes`,
    })
    .nullish()
    .describe(
      `Bytes of printer data (ESC/POS as sent) per window: 0 or absent for one window, else ${MIN_WINDOW_BYTES}–10000000. Windows widen so that the pauses of one print add up to at most 120 s.`,
    ),
  printDelay: z
    .number()
    .int()
    .min(0)
    .max(MAX_PRINT_DELAY_MS)
    .nullish()
    .describe(
      `Milliseconds to wait between two windows (0–${MAX_PRINT_DELAY_MS}), so a thermal head cools down.`,
    ),
};

/**
 * What a job cut short left on paper (ADR 0507): `partialPrint` of a 507 on store, and of the
 * ErrorResponse of a print that failed part way (106, or 100/105 mid-job).
 */
export const PartialPrintInfo = z
  .object({
    totalBytes: z.number().int().describe('Size of the whole job in printer data (ESC/POS bytes as sent).'),
    resumeOffset: z
      .number()
      .int()
      .describe(
        'The job byte a resumed print starts at (after ESC @ and the prelude): the end of the last unit the printer confirmed as printed.',
      ),
    printedLines: z
      .number()
      .int()
      .describe('Lines, pictures and codes before resumeOffset: on the paper for certain.'),
    unconfirmedLines: z
      .number()
      .int()
      .optional()
      .describe(
        'Lines after resumeOffset that reached the printer but whose printing it could not confirm: the resumed print prints them again, so they may appear twice.',
      ),
    lastPrintedLine: z
      .string()
      .optional()
      .describe('The text of the last line before resumeOffset: look for it on the paper.'),
    jobSha256: z
      .string()
      .describe('SHA-256 (hex) of the job bytes: only the very same job resumes, any other starts afresh.'),
  })
  .meta({
    id: 'PartialPrintInfo',
    description:
      'What a print cut short left on paper and where printing the same job again goes on (docs/printing.md).',
    examples: [
      {
        totalBytes: 3184,
        resumeOffset: 412,
        printedLines: 9,
        unconfirmedLines: 4,
        lastPrintedLine: 'Kód pokladne:            88812345678900001',
        jobSha256: '5d41402abc4b2a76b9719d911017c592a4f4d0b1e2f3a4b5c6d7e8f9a0b1c2d3',
      },
    ],
  });

const PrinterStatusSchema = z.object({
  ready: z.boolean().describe('a job sent now is expected to print'),
  connected: z.boolean(),
  paper: z.enum(['ok', 'near-end', 'out', 'unknown']),
  coverOpen: z.boolean(),
  faultCode: z.number().int().optional().describe('the code a print would fail with now (100–106)'),
  fault: z.string().optional(),
  busy: z
    .boolean()
    .optional()
    .describe(
      'true while a job prints: the status is the one read last (before the job or after one of its lines)',
    ),
});

export const PrinterInfoSchema = z.object({
  adapter: z.string().describe('virtual, none, tcp, serial, usb or chdu'),
  target: z.string().describe('the --printer target'),
  model: z.string(),
  charsPerLine: z
    .number()
    .int()
    .describe('characters per line at normal size: what receipts are laid out for'),
  numberOfCharInRow: z.number().int().describe('the same as charsPerLine, for existing clients'),
  paperWidthDots: z.number().int().describe('printable width in dots at 203 dpi (384, 512, 576)'),
  codepage: z.string().describe('cp852, cp1250, or raster (text printed as images)'),
  drawer: z.boolean().describe('a cash drawer can be kicked through this printer'),
  status: PrinterStatusSchema,
});

export const PrinterResponse = PrinterInfoSchema.extend({ resultCode: z.literal(0) }).meta({
  id: 'PrinterResponse',
  examples: [
    {
      resultCode: 0,
      adapter: 'tcp',
      target: 'tcp://192.168.1.50:9100',
      model: 'ESC/POS (tcp)',
      charsPerLine: 48,
      numberOfCharInRow: 48,
      paperWidthDots: 576,
      codepage: 'cp852',
      drawer: true,
      status: {
        ready: false,
        connected: true,
        paper: 'out',
        coverOpen: false,
        faultCode: 105,
        fault: 'PRINTER_NO_PAPER',
      },
    },
  ],
});

export const PrintStringRequest = strictRequest({
  printData: z
    .string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a string') })
    .describe(
      'The text as it is to be printed: \\n breaks lines, the caller pads (see GET /api/printer for characters per line). Up to 8000 characters; no other control characters.',
    ),
  printer: strictRequest({ ...PrintOptionsFields }, 'Printer').nullish(),
}).meta({
  id: 'PrintStringRequest',
  examples: [{ printData: 'Stôl 4\nObjednávka 17\n2x Káva          5.00' }],
});

export const RawResponse = z
  .object({
    resultCode: z.literal(0),
    recordNo: z.number().int().describe('the CHDÚ journal record holding the text'),
  })
  .meta({ id: 'RawResponse', examples: [{ resultCode: 0, recordNo: 412 }] });

export const OpenDrawerRequest = strictRequest({
  pin: z
    .union([z.literal(2), z.literal(5)], { error: 'must be 2 or 5' })
    .nullish()
    .describe('Drawer kick connector pin: 2 (default) or 5.'),
}).meta({ id: 'OpenDrawerRequest', examples: [{}, { pin: 5 }] });

const imageData = z
  .string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a string') })
  .describe('The picture in Base64 (PNG, JPEG, GIF or WebP; a data: URL is accepted), at most 5 MB.');

export const LogoPreviewRequest = strictRequest({
  imageData,
  format: z
    .enum(['BOTH', 'PRINT', 'ELECTRONIC'], { error: 'must be BOTH, PRINT or ELECTRONIC' })
    .describe('PRINT: as the printer prints it; ELECTRONIC: as the electronic receipt shows it.'),
  fitOnReceipt: z.boolean().nullish().describe('Show each variant on a sample receipt.'),
}).meta({ id: 'LogoPreviewRequest', examples: [{ imageData: 'iVBORw0KGgo…', format: 'BOTH' }] });

const PreviewImage = z.object({
  imageData: z.string().describe('PNG in Base64'),
  width: z.number().int().describe('dots (pixels)'),
  height: z.number().int(),
});

export const LogoPreviewResponse = z
  .object({
    resultCode: z.literal(0),
    print: PreviewImage.optional().describe('black dots only, dithered, trimmed, at most the paper width'),
    electronic: PreviewImage.optional().describe('the colour logo as the electronic receipt shows it'),
  })
  .meta({
    id: 'LogoPreviewResponse',
    examples: [{ resultCode: 0, print: { imageData: 'iVBORw0KGgo…', width: 320, height: 96 } }],
  });

export const ImageStoreRequest = strictRequest({
  imageData: imageData.nullable().describe('The logo in Base64; null removes it.'),
}).meta({ id: 'ImageStoreRequest', examples: [{ imageData: 'iVBORw0KGgo…' }, { imageData: null }] });

export const ImageStoreResponse = z
  .object({
    resultCode: z.literal(0),
    recordNo: z.number().int().describe('the CHDÚ journal record holding the logo'),
    width: z.number().int().optional(),
    height: z.number().int().optional(),
  })
  .meta({ id: 'ImageStoreResponse', examples: [{ resultCode: 0, recordNo: 413, width: 320, height: 96 }] });
