import { randomUUID } from 'node:crypto';
import https from 'node:https';
import jsqrModule from 'jsqr';
import { PNG } from 'pngjs';
import { bankHash, type NopSimulator } from '../../src/simulators/nop/nop-simulator.js';
import { type PaymeOrder, parsePaymeLink } from '../../src/simulators/nop/payme-parser.js';

type JsQr = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
// jsqr is CommonJS: depending on the loader the default import is the function or its module.
const jsQR: JsQr =
  typeof jsqrModule === 'function'
    ? (jsqrModule as unknown as JsQr)
    : (jsqrModule as unknown as { default: JsQr }).default;

/** Reads the QR in a PNG the way a phone camera would (jsQR over the decoded pixels). */
export function decodeQrPng(png: Uint8Array): string {
  const image = PNG.sync.read(Buffer.from(png));
  const code = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
  if (!code) throw new Error('no QR code found in the PNG');
  return code.data;
}

/** The bank app: decode kasa's QR, read the Payme link strictly. */
export function scan(png: Uint8Array): PaymeOrder {
  return parsePaymeLink(decodeQrPng(png));
}

export interface BankCall {
  status: number;
  body: unknown;
}

/**
 * The merchant's bank notifies NOP through the simulator's bank API (`POST /api/v1/payments`,
 * mutual TLS with the bank certificate the simulator issued), exactly as research §2.7 describes.
 */
export function bankNotifies(
  sim: NopSimulator,
  order: Pick<PaymeOrder, 'iban' | 'amount' | 'paymentId'>,
  options: {
    amount?: string;
    wrongHash?: boolean;
    requestId?: string;
    identity?: { key: string; cert: string };
  } = {},
): Promise<BankCall> {
  const amount = options.amount ?? order.amount;
  const body = JSON.stringify({
    transactionStatus: 'ACCC',
    transactionAmount: { amount, currency: 'EUR' },
    endToEndId: order.paymentId,
    dataIntegrityHash: bankHash(
      order.iban,
      amount,
      options.wrongHash ? `${order.paymentId}-x` : order.paymentId,
    ),
    creditorAccount: { iban: order.iban },
  });
  const identity = options.identity ?? sim.bankIdentity;
  return new Promise((resolve, reject) => {
    const req = https.request(
      `${sim.erpUrl}/api/v1/payments`,
      {
        method: 'POST',
        key: identity.key,
        cert: identity.cert,
        ca: sim.caCertPem,
        agent: false,
        headers: {
          'content-type': 'application/json',
          'x-request-id': options.requestId ?? randomUUID(),
          date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Polls `check` until it returns a value, or fails after `ms`. For conditions, not for timing. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  ms = 20_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
