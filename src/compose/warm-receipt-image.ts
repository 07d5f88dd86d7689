import type { Logger } from 'pino';
import type { ReceiptImageRenderer } from '../core/ports/receipt-renderer.js';
import { layoutReceipt } from '../core/receipt/receipt-layout.js';
import { SAMPLE_RECEIPTS } from '../core/receipt/sample-receipts.js';
import type { KasaApp } from '../http/app.js';

/**
 * ADR 1116: once the register listens, the electronic receipt's drawing runs once on the online
 * sample receipt (nothing stored, printed or sent; the PNG is dropped), so that the first
 * `electronicReceipt: true` after a start does not pay the drawing code's first use (measured:
 * 33–45 ms for that receipt before, 18–23 ms after; the next ones 8–13 ms). It runs once, queued
 * when the port opens; a request that arrives meanwhile (the first of a start included) waits for
 * it, 27–43 ms once. The logo is not drawn. A failure is logged and changes nothing: a real
 * receipt draws on its own and reports its own error.
 */
export function warmReceiptImageOnListen(
  app: KasaApp,
  renderer: ReceiptImageRenderer,
  charsPerLine: () => number,
  logger: Logger,
): void {
  let pending: NodeJS.Immediate | undefined;
  app.addHook('onListen', async () => {
    pending = setImmediate(() => {
      pending = undefined;
      try {
        renderer.renderPng(layoutReceipt(SAMPLE_RECEIPTS.pdOnline, charsPerLine()));
      } catch (e) {
        logger.warn({ err: (e as Error).message }, 'drawing the sample receipt at start-up failed');
      }
    });
  });
  app.addHook('onClose', async () => {
    if (pending) clearImmediate(pending);
    pending = undefined;
  });
}
