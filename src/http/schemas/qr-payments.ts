import { z } from 'zod';
import { QR_PAYMENT_STATES } from '../../core/qr-payments/payment-intent.js';

/**
 * Schemas of the QR payment endpoints (kasa extension, ADR 0900; docs/qr-payments.md). Request
 * bodies are strict: an unknown member is a 701 naming it. Query strings ignore parameters they do
 * not know (a cache-buster on a display's image URL is not an error).
 */
const exampleId = 'QR-780554711ad94950bbac61f9e7d3af41';

export const CreateQrPaymentRequest = z
  .strictObject({
    amount: z.number({ error: 'must be a number' }).describe('EUR, 0.01–999999.99, at most 2 decimals.'),
    externalId: z.string().nullish().describe("The POS's own reference (≤ 50), e.g. the order."),
    message: z
      .string()
      .nullish()
      .describe(
        'Message in the QR for the payer (≤ 140 after folding to ASCII); default the nopMessage setting.',
      ),
    expiresIn: z
      .number()
      .int()
      .nullish()
      .describe('Seconds to wait for the money (30–1800); default the nopExpirySeconds setting (300).'),
  })
  .meta({ id: 'CreateQrPaymentRequest', examples: [{ amount: 12.5, externalId: 'order-77' }] });

export const EmptyQrRequest = z.strictObject({}).meta({ examples: [{}] });

const QrPaymentState = z.enum(QR_PAYMENT_STATES as unknown as ['PENDING', ...string[]]);

export const QrPayment = z
  .object({
    qrPaymentId: z.string().describe('NOP payment id: QR- and 32 hex digits (the EndToEndId, Payme PI).'),
    state: QrPaymentState.describe('PENDING, PAID, MISMATCH, CANCELLED, EXPIRED, LATE_PAID or USED.'),
    amount: z.number(),
    currency: z.literal('EUR'),
    payme: z.string().describe('The Payme link the QR carries.'),
    externalId: z.string().optional(),
    environment: z.string().describe('Where the id comes from: int, prod, sim or custom.'),
    createdAt: z.string(),
    nopCreatedAt: z.string(),
    expiresAt: z.string(),
    updatedAt: z.string(),
    received: z
      .object({
        amount: z.number(),
        currency: z.string(),
        hashOk: z.boolean(),
        mismatch: z.enum(['hash', 'underpaid', 'overpaid', 'currency']).optional(),
        bankTime: z.string().optional(),
        notifiedAt: z.string(),
        via: z.enum(['mqtt', 'rest']),
      })
      .optional()
      .describe('What the first payment notification said, as checked.'),
    conflictingNotifications: z.number().int().optional(),
    document: z
      .object({
        internalDocumentId: z.number().int(),
        documentNumber: z.string(),
        uuid: z.string().optional(),
      })
      .optional()
      .describe('The receipt that used the id (state USED).'),
    links: z.object({
      qrPng: z.string(),
      print: z.string(),
      customerDisplay: z.string(),
      events: z.string(),
      cancel: z.string(),
    }),
  })
  .meta({ id: 'QrPayment' });

const exampleQrPayment = {
  qrPaymentId: exampleId,
  state: 'PENDING',
  amount: 12.5,
  currency: 'EUR',
  payme: `https://payme.sk/2/m/PME?IBAN=SK4811000000002944116480&AM=12.50&CC=EUR&PI=${exampleId}&CN=Kaviaren%20Zilina`,
  externalId: 'order-77',
  environment: 'int',
  createdAt: '2026-03-02T09:15:30.120Z',
  nopCreatedAt: '2026-03-02T09:15:30Z',
  expiresAt: '2026-03-02T09:20:30.120Z',
  updatedAt: '2026-03-02T09:15:30.120Z',
  links: {
    qrPng: `/api/qrpayment/${exampleId}/qr.png`,
    print: `/api/qrpayment/${exampleId}/print`,
    customerDisplay: `/pay/${exampleId}`,
    events: `/api/qrpayment/${exampleId}/events`,
    cancel: `/api/qrpayment/${exampleId}/cancel`,
  },
};

export const QrPaymentResponse = z
  .object({ resultCode: z.literal(0), qrPayment: QrPayment })
  .meta({ id: 'QrPaymentResponse', examples: [{ resultCode: 0, qrPayment: exampleQrPayment }] });

export const QrPaymentParams = z.strictObject({
  id: z.string().max(100).describe('The QR payment id.'),
});

export const WaitQuery = z.looseObject({
  wait: z
    .string()
    .regex(/^([0-9]|[1-5][0-9]|60)$/, 'must be 0-60 seconds')
    .optional()
    .describe('Long poll: answer at the first change, at expiry or after this many seconds (0–60).'),
});

export const PngQuery = z.looseObject({
  scale: z
    .string()
    .regex(/^([1-9]|1\d|20)$/, 'must be 1-20')
    .optional()
    .describe('Pixels per module (1–20, default 8).'),
});

export const DayQuery = z.looseObject({
  date: z.string().optional().describe('YYYY-MM-DD, Europe/Bratislava; default today.'),
  state: z.string().optional().describe('Only intents in this state.'),
});

const Totals = z.object({
  usedCents: z.number().int(),
  paidNotUsedCents: z.number().int(),
  lateCents: z.number().int(),
  mismatchCents: z.number().int(),
  count: z.record(z.string(), z.number().int()),
});

export const QrPaymentDayResponse = z
  .object({
    resultCode: z.literal(0),
    date: z.string(),
    qrPayments: z.array(QrPayment),
    totals: Totals,
    toReview: z.array(QrPayment),
    notificationsToReview: z.array(
      z.object({
        paymentId: z.string(),
        payload: z.string(),
        via: z.enum(['mqtt', 'rest']),
        topic: z.string().optional(),
        firstSeenAt: z.string(),
        deliveries: z.number().int(),
        outcome: z.enum(['applied', 'repeat', 'unmatched', 'unreadable']),
      }),
    ),
  })
  .meta({
    id: 'QrPaymentDayResponse',
    examples: [
      {
        resultCode: 0,
        date: '2026-03-02',
        qrPayments: [exampleQrPayment],
        totals: {
          usedCents: 0,
          paidNotUsedCents: 0,
          lateCents: 0,
          mismatchCents: 0,
          count: { PENDING: 1, PAID: 0, MISMATCH: 0, CANCELLED: 0, EXPIRED: 0, LATE_PAID: 0, USED: 0 },
        },
        toReview: [],
        notificationsToReview: [],
      },
    ],
  });

export const NotifierStatusResponse = z
  .object({
    resultCode: z.literal(0),
    notifier: z.object({
      environment: z.string(),
      target: z.string(),
      connected: z.boolean(),
      problem: z.string().optional(),
      refused: z.boolean().optional(),
      lastCatchUpAt: z.string().optional(),
    }),
  })
  .meta({
    id: 'NotifierStatusResponse',
    examples: [
      {
        resultCode: 0,
        notifier: { environment: 'int', target: 'int https://api-erp-i.kverkom.sk', connected: true },
      },
    ],
  });
