import { z } from 'zod';
import type { QrPaymentJobs } from '../../compose/qr-payment-jobs.js';
import { readIdempotencyKey } from '../../core/documents/idempotency.js';
import { isFinalForWaiting } from '../../core/qr-payments/payment-intent.js';
import type { CancelQrPayment } from '../../core/services/qr-payments/cancel-qr-payment.js';
import type { CreateQrPayment } from '../../core/services/qr-payments/create-qr-payment.js';
import type { GetQrPayment } from '../../core/services/qr-payments/get-qr-payment.js';
import type { PrintQrSlip } from '../../core/services/qr-payments/print-qr-slip.js';
import type { QrPaymentDay } from '../../core/services/qr-payments/qr-payment-day.js';
import type { QrPaymentWatch } from '../../core/services/qr-payments/qr-payment-watch.js';
import type { RoutePlugin } from '../app.js';
import { errorResponses } from '../schemas/common.js';
import {
  CreateQrPaymentRequest,
  DayQuery,
  EmptyQrRequest,
  NotifierStatusResponse,
  PngQuery,
  QrPaymentDayResponse,
  QrPaymentParams,
  QrPaymentResponse,
  WaitQuery,
} from '../schemas/qr-payments.js';

export interface QrPaymentRouteDeps {
  create: CreateQrPayment;
  get: GetQrPayment;
  cancel: CancelQrPayment;
  print: PrintQrSlip;
  day: QrPaymentDay;
  watch: QrPaymentWatch;
  jobs: Pick<QrPaymentJobs, 'status'>;
  qrPng(text: string, scale: number): Promise<Uint8Array>;
}

/** SSE: a comment line this often keeps the stream under the server's 300 s idle limit. */
export const SSE_HEARTBEAT_MS = 15_000;
/** SSE: the stream ends after this long; the client reconnects if it still cares. */
export const SSE_MAX_MS = 600_000;

const EXT = 'Extension (not in the API v1.7 text; docs/qr-payments.md). ';
const tags = ['qr-payments (extension)'];

const IdempotencyHeaders = z.looseObject({
  'idempotency-key': z
    .string()
    .optional()
    .describe(
      'Up to 100 printable ASCII characters. A retry with the same key and body answers the same QR payment; NOP is never asked twice.',
    ),
});

/** The QR payment endpoints (ADR 0900), every one an extension under /api/qrpayment. */
export function qrPaymentRoutes(deps: QrPaymentRouteDeps): RoutePlugin {
  return (app) => {
    app.post(
      '/api/qrpayment/create',
      {
        schema: {
          tags,
          summary: 'Ask NOP for a payment id and show it as a QR (Payme link)',
          description: `${EXT}801 when NOP cannot be reached (no id is invented: offer another tender), 802 when NOP refuses the certificate, 800 when QR payments are off.`,
          headers: IdempotencyHeaders,
          body: CreateQrPaymentRequest,
          response: { 200: QrPaymentResponse, ...errorResponses },
        },
      },
      async (request) =>
        deps.create.execute(
          request.body,
          request.jsonBody,
          readIdempotencyKey(request.headers['idempotency-key']),
        ),
    );
    app.get(
      '/api/qrpayment',
      {
        schema: {
          tags,
          summary: "A day's QR payments, their totals and what needs review",
          description: `${EXT}For the close of the day: LATE_PAID and MISMATCH intents mean money to refund or check.`,
          querystring: DayQuery,
          response: { 200: QrPaymentDayResponse, ...errorResponses },
        },
      },
      async (request) => deps.day.execute(request.query),
    );
    app.get(
      '/api/qrpayment/notifier',
      {
        schema: {
          tags,
          summary: 'The NOP connection: environment, session, last problem',
          description: `${EXT}Shows whether the MQTT session is up and why not (e.g. NOP refused the certificate).`,
          response: { 200: NotifierStatusResponse, ...errorResponses },
        },
      },
      async () => ({ resultCode: 0 as const, notifier: deps.jobs.status() }),
    );
    app.get(
      '/api/qrpayment/:id',
      {
        schema: {
          tags,
          summary: 'A QR payment; with ?wait=N a long poll for its next state',
          description: `${EXT}Answers at once unless the state is PENDING; then at the first change, at expiry or after N seconds (≤ 60).`,
          params: QrPaymentParams,
          querystring: WaitQuery,
          response: { 200: QrPaymentResponse, ...errorResponses },
        },
      },
      async (request) => {
        const abort = new AbortController();
        request.raw.once('close', () => abort.abort());
        return deps.get.execute(request.params.id, Number(request.query.wait ?? 0), abort.signal);
      },
    );
    app.post(
      '/api/qrpayment/:id/cancel',
      {
        schema: {
          tags,
          summary: 'Stop waiting for a QR payment',
          description: `${EXT}PENDING becomes CANCELLED (money that still comes is LATE_PAID). Refused with 806 once PAID: issue the receipt.`,
          params: QrPaymentParams,
          body: EmptyQrRequest,
          response: { 200: QrPaymentResponse, ...errorResponses },
        },
      },
      async (request) => deps.cancel.execute(request.params.id),
    );
    app.post(
      '/api/qrpayment/:id/print',
      {
        schema: {
          tags,
          summary: 'Print the QR on a non-fiscal slip',
          description: `${EXT}"NEPLATNÝ DOKLAD" on every third line (it shows a price). Only while PENDING.`,
          params: QrPaymentParams,
          body: EmptyQrRequest,
          response: { 200: QrPaymentResponse, ...errorResponses },
        },
      },
      async (request) => deps.print.execute(request.params.id),
    );
    app.get(
      '/api/qrpayment/:id/qr.png',
      {
        schema: {
          tags,
          summary: 'The QR (Payme link) as PNG',
          description: `${EXT}Error correction M, 4-module quiet zone. Only while PENDING: 804 with the state once the payment no longer waits for money.`,
          params: QrPaymentParams,
          querystring: PngQuery,
          response: {
            200: z.any().describe('PNG image (image/png).'),
            ...errorResponses,
          },
        },
      },
      async (request, reply) => {
        const png = await deps.qrPng(deps.get.scannable(request.params.id), Number(request.query.scale ?? 8));
        return reply.type('image/png').header('cache-control', 'no-store').send(Buffer.from(png));
      },
    );
    app.get(
      '/api/qrpayment/:id/events',
      {
        schema: {
          tags,
          summary: 'Server-sent events: the state of a QR payment as it changes',
          description: `${EXT}text/event-stream; event "state" with the QrPayment as data, at once and at every change; a comment every 15 s; the stream ends when the state is no longer PENDING (or after 10 minutes).`,
          params: QrPaymentParams,
          response: {
            200: z.any().describe('Event stream (text/event-stream).'),
            ...errorResponses,
          },
        },
      },
      async (request, reply) => {
        const first = await deps.get.execute(request.params.id);
        reply.hijack();
        const res = reply.raw;
        res.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-store',
          connection: 'keep-alive',
          'x-request-id': String(request.id),
        });
        const send = (view: unknown) => res.write(`event: state\ndata: ${JSON.stringify(view)}\n\n`);
        // Subscribe before reading the state again, so no change between the two is missed.
        const stop = deps.watch.subscribe(first.qrPayment.qrPaymentId, (view) => {
          send(view);
          if (isFinalForWaiting(view.state)) finish();
        });
        const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), SSE_HEARTBEAT_MS);
        const limit = setTimeout(() => finish(), SSE_MAX_MS);
        request.raw.once('close', finish);
        const now = (await deps.get.execute(request.params.id)).qrPayment;
        send(now);
        if (isFinalForWaiting(now.state)) finish();
        function finish(): void {
          clearInterval(heartbeat);
          clearTimeout(limit);
          stop();
          if (!res.writableEnded) res.end();
        }
      },
    );
  };
}
