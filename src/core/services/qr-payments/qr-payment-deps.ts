import type { Clock } from '../../ports/clock.js';
import type { JournalIndex } from '../../ports/journal-index.js';
import type { PaymentIntentStore } from '../../ports/payment-intent-store.js';
import type { PaymentNotifier } from '../../ports/payment-notifier.js';
import type { ReceiptPrinter } from '../../ports/receipt-printer.js';
import type { QrPaymentSettings } from '../../qr-payments/qr-payment-settings.js';
import type { UsableMerchant } from '../merchant-session.js';
import type { QrPaymentWatch } from './qr-payment-watch.js';

export type QrPaymentLog = (
  level: 'debug' | 'info' | 'warn' | 'error',
  message: string,
  data?: Record<string, unknown>,
) => void;

/** What the QR payment use cases need; wired once in src/compose/qr-payments.ts. */
export interface QrPaymentDeps {
  store: PaymentIntentStore;
  /**
   * NOP as the settings and flags now say, and the label kept with each intent (`int`, `prod`,
   * `sim`, `custom`); undefined while QR payments are off (then 800).
   */
  nop(): { notifier: PaymentNotifier; environment: string } | undefined;
  /** Stored settings and "which document used this id" (the CHDÚ's answer). */
  index: Pick<JournalIndex, 'findDocument' | 'settings'>;
  merchant: { currentSigner(): UsableMerchant };
  /** The settings in force (stored, flags, demo defaults: src/core/qr-payments/qr-payment-settings.ts). */
  settings(): QrPaymentSettings;
  printer: ReceiptPrinter;
  clock: Clock;
  watch: QrPaymentWatch;
  log: QrPaymentLog;
}
