import { formatCents } from '../receipt/format-cents.js';
import { foldPaymeText } from './payme-text.js';
import type { PaymeType } from './qr-payment-settings.js';

export interface PaymeLinkInput {
  type: PaymeType;
  iban: string;
  amountCents: number;
  /** The NOP payment id: Payme `PI` = the payment's EndToEndId. */
  paymentId: string;
  creditorName: string;
  message?: string | undefined;
}

/**
 * The Payme link a QR payment shows (SBA Payment Link Standard v2, ADR 0902):
 * `https://payme.sk/2/<type>/PME?IBAN=…&AM=…&CC=EUR&PI=QR-…&CN=…[&MSG=…]`. `DT` is left out for a
 * dynamic point-of-sale QR; `CN` and `MSG` are folded to the recommended characters and
 * URL-encoded (a space as `%20`, which every bank must accept).
 */
export function paymeLink(input: PaymeLinkInput): string {
  const params: Array<[string, string]> = [
    ['IBAN', input.iban],
    ['AM', formatCents(input.amountCents)],
    ['CC', 'EUR'],
    ['PI', input.paymentId],
    ['CN', foldPaymeText(input.creditorName).slice(0, 70)],
  ];
  const message = input.message === undefined ? '' : foldPaymeText(input.message).slice(0, 140);
  if (message !== '') params.push(['MSG', message]);
  const query = params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
  return `https://payme.sk/2/${input.type}/PME?${query}`;
}
