import type { ReceiptLayout } from '../receipt/receipt-blocks.js';

/** Renders a laid-out receipt as an image: the electronic receipt (same content as paper). */
export interface ReceiptImageRenderer {
  /** PNG bytes of the whole receipt, QR included. Deterministic: same layout, same bytes. */
  renderPng(layout: ReceiptLayout): Uint8Array;
}
